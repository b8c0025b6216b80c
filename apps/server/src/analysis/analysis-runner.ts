// Works through the analysis queue (the match_analysis rows), one analysis
// at a time per server process, in the engine's worker pool. A match is
// analysed in slices of a few plies, each one pool call, and the plies done
// are stored after each: the progress a client sees, and where a run taken
// up again after a crash continues. Rows are claimed with SKIP LOCKED, so
// several processes share the queue; a running row whose `updatedAt` has
// not moved for `staleMs` belonged to a process that died and is claimed
// again.

import type { FastifyBaseLogger } from 'fastify';
import { logFailure } from '../errors.js';
import { accuracyOf, type EnginePool, type PlyAnalysis as EnginePly } from '@oanquan/engine';
import type { PlyAnalysis } from '@oanquan/protocol';
import { formatMove, type Move, type Player, type RuleOptions } from '@oanquan/rules';
import type { Database } from '../db/database.js';
import type { StoredAnalysis } from './analysis-service.js';

export interface AnalysisRunnerSettings {
  /** Plies per pool call. */
  readonly slicePlies: number;
  /** A running row untouched this long is taken up again. */
  readonly staleMs: number;
  /** How often the queue is looked at without being told (other processes' requests, stale rows). */
  readonly pollMs: number;
}

export const defaultRunnerSettings: AnalysisRunnerSettings = { slicePlies: 4, staleMs: 120_000, pollMs: 5_000 };

export class AnalysisRunner {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly engine: () => EnginePool,
    private readonly log: FastifyBaseLogger,
    private readonly settings: AnalysisRunnerSettings = defaultRunnerSettings,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.settings.pollMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Something was queued: work through the queue unless already at it. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        while (!this.stopped && (await this.runOne())) this.again = false;
      } while (this.again && !this.stopped);
    })()
      .catch((error: unknown) => logFailure(this.log, error, {}, 'analysis queue failed'))
      .finally(() => {
        this.running = undefined;
      });
  }

  /** Claims and runs one analysis; false when none waits. */
  private async runOne(): Promise<boolean> {
    const stale = new Date(Date.now() - this.settings.staleMs);
    const claimed = await this.db.prisma.$queryRaw<Array<{ match_id: string }>>`
      UPDATE match_analysis SET status = 'running', updated_at = now()
      WHERE match_id = (
        SELECT match_id FROM match_analysis
        WHERE status = 'queued' OR (status = 'running' AND updated_at < ${stale})
        ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING match_id`;
    const matchId = claimed[0]?.match_id;
    if (!matchId) return false;
    try {
      await this.analyse(matchId);
    } catch (error) {
      logFailure(this.log, error, { matchId }, 'analysis failed');
      await this.db.prisma.matchAnalysis.updateMany({ where: { matchId }, data: { status: 'failed', updatedAt: new Date() } });
    }
    return true;
  }

  private async analyse(matchId: string): Promise<void> {
    const row = await this.db.prisma.matchAnalysis.findUniqueOrThrow({
      where: { matchId },
      include: { match: { select: { rules: true, first: true, moves: { orderBy: { ply: 'asc' }, select: { square: true, dir: true } } } } },
    });
    const rules = row.match.rules as unknown as RuleOptions;
    const first = (row.match.first ?? 0) as Player;
    const moves: Move[] = row.match.moves.map((m) => ({ square: m.square, dir: m.dir === 1 ? 1 : -1 }));
    const plies = [...((row.result as unknown as StoredAnalysis | null)?.plies ?? [])];
    for (let from = plies.length; from < moves.length; from += this.settings.slicePlies) {
      if (this.stopped) return;
      const to = Math.min(moves.length, from + this.settings.slicePlies);
      const slice = await this.engine().analyse({ rules, first, moves: moves.slice(0, to) }, { depth: row.depth, fromPly: from });
      plies.push(...slice.plies.map(toWire));
      await this.save(matchId, { status: 'running', done: plies.length, total: moves.length, result: { plies } });
    }
    const accuracy = accuracyOf(plies.map((p) => ({ player: p.seat, accuracy: p.accuracy })));
    await this.save(matchId, { status: 'done', done: plies.length, total: moves.length, result: { plies, accuracy } });
  }

  private async save(matchId: string, data: { status: string; done: number; total: number; result: StoredAnalysis }): Promise<void> {
    await this.db.prisma.matchAnalysis.update({ where: { matchId }, data: { ...data, result: data.result as object, updatedAt: new Date() } });
  }
}

/** The engine's ply as the API serves it: plies from 1, the best move also in R7.1 notation, the line left out, the endgame proofs only where there are some. */
function toWire(ply: EnginePly): PlyAnalysis {
  return {
    ply: ply.ply + 1,
    seat: ply.player,
    eval: ply.eval,
    winChance: ply.winChance,
    best: { square: ply.best.square, dir: ply.best.dir },
    bestNotation: formatMove(ply.best, ply.player),
    playedEval: ply.playedEval,
    pointsLost: ply.pointsLost,
    chanceLost: ply.chanceLost,
    label: ply.label,
    accuracy: ply.accuracy,
    ...(ply.bestPlay === null ? {} : { bestPlay: ply.bestPlay }),
    ...(ply.throwsWin ? { throwsWin: true } : {}),
  };
}
