// Puzzles from people's games: a background job that takes one analysed
// match at a time, looks at the positions of its mistakes and blunders and
// the ones right after (puzzles/game-puzzles.ts in the engine), and stores
// the puzzles it verifies. It runs on an engine pool of its own, one thread
// at the lowest priority, and asks it for one game at a time, so that a
// computer's move or an analysis never waits behind it and the event loop
// only ever waits for one database round trip of it. A match is claimed by
// inserting its row in puzzle_mining first, so several processes share the
// work without a lock and none mines a match twice.

import type { EnginePool } from '@oanquan/engine';
import { pliesWorthALook } from '@oanquan/engine';
import type { Move, Player, RuleOptions } from '@oanquan/rules';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import { logFailure } from '../errors.js';
import { PeriodicTask } from '../periodic-task.js';
import { storePuzzles } from './puzzle-store.js';

export interface MinerSettings {
  /** How often the job looks for newly analysed matches. */
  readonly pollMs: number;
  /** Puzzles kept from one match, at most. */
  readonly perGame: number;
}

export const defaultMinerSettings: MinerSettings = { pollMs: 30_000, perGame: 3 };

export class PuzzleMiner {
  private readonly polls: PeriodicTask;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly engine: () => EnginePool,
    private readonly log: FastifyBaseLogger,
    private readonly settings: MinerSettings = defaultMinerSettings,
  ) {
    this.polls = new PeriodicTask(() => this.mineAll(), settings.pollMs);
  }

  start(): void {
    this.polls.start();
    void this.polls.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.polls.stop();
  }

  /** Mines every analysed match not yet mined, one after another. */
  private async mineAll(): Promise<void> {
    try {
      while (!this.stopped && (await this.mineOne()) !== null);
    } catch (error) {
      if (!this.stopped) logFailure(this.log, error, {}, 'puzzle mining failed');
    }
  }

  /** Claims one analysed match and stores its puzzles; answers how many were new, or null when none was left. */
  async mineOne(): Promise<number | null> {
    const claimed = await this.db.prisma.$queryRaw<Array<{ match_id: string }>>`
      INSERT INTO puzzle_mining (match_id)
      SELECT a.match_id FROM match_analysis a
      WHERE a.status = 'done' AND NOT EXISTS (SELECT 1 FROM puzzle_mining m WHERE m.match_id = a.match_id)
      ORDER BY a.updated_at
      LIMIT 1
      ON CONFLICT DO NOTHING
      RETURNING match_id`;
    const matchId = claimed[0]?.match_id;
    if (matchId === undefined) return null;
    const row = await this.db.prisma.matchAnalysis.findUnique({
      where: { matchId },
      select: { result: true, match: { select: { rules: true, first: true, moves: { orderBy: { ply: 'asc' }, select: { square: true, dir: true } } } } },
    });
    if (!row) return 0;
    const analysed = (row.result as { plies?: { ply: number; label: string }[] } | null)?.plies ?? [];
    // The stored plies count from 1 (as the match record does); the engine's from 0.
    const plies = pliesWorthALook(analysed.map(({ ply, label }) => ({ ply: ply - 1, label })));
    if (plies.length === 0) return 0;
    const moves: Move[] = row.match.moves.map((m) => ({ square: m.square, dir: m.dir === 1 ? 1 : -1 }));
    const game = { rules: row.match.rules as unknown as RuleOptions, first: (row.match.first ?? 0) as Player, moves };
    const puzzles = await this.engine().gamePuzzles(game, { plies, perGame: this.settings.perGame });
    const found = await storePuzzles(this.db, puzzles, { kind: 'game', matchId });
    await this.db.prisma.puzzleMining.update({ where: { matchId }, data: { found } });
    return found;
  }
}
