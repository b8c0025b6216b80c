// Asking for and reading the engine's analysis of a finished match. The
// analysis is stored once per match; asking again answers the stored one.
// Strangers must not be able to make the server analyse without end, so
// the waiting and running analyses are capped in all and per player (under
// an advisory lock, so the caps hold across server processes), per address
// (in this process, see running-caps.ts), on top of the REST rate limit.

import { accuracyOf, chanceLost, judgeMove } from '@oanquan/engine';
import { ErrorCode, type AnalysisResponse, type PlyAnalysis } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { MatchAnalysis } from '../generated/prisma/client.js';
import type { Counters } from '../limits/counters.js';
import { RunningCaps } from '../limits/running-caps.js';

export interface AnalysisSettings {
  readonly depth: number;
  readonly queueMax: number;
  readonly perPlayer: number;
  readonly perAddress: number;
}

/** What `result` holds: the plies analysed so far, and once done each seat's accuracy. */
export interface StoredAnalysis {
  plies: PlyAnalysis[];
  accuracy?: [number | null, number | null];
}

/** Class of the advisory lock that serializes admissions to the analysis queue. */
const QUEUE_LOCK_CLASS = 7_300_502;
const PENDING = ['queued', 'running'];

export class AnalysisService {
  private readonly byAddress: RunningCaps;

  constructor(
    private readonly db: Database,
    private readonly settings: AnalysisSettings,
    private readonly queued: () => void,
    places: Counters,
  ) {
    this.byAddress = new RunningCaps(places, 'analyses', async (matchIds) => {
      const pending = await db.prisma.matchAnalysis.findMany({ where: { matchId: { in: matchIds }, status: { in: PENDING } }, select: { matchId: true } });
      return new Set(pending.map((row) => row.matchId));
    });
  }

  async read(matchId: string): Promise<AnalysisResponse> {
    const match = await this.db.prisma.match.findUnique({ where: { id: matchId }, select: { id: true, analysis: true } });
    if (!match) throw new ServiceError(ErrorCode.MatchNotFound, 'No such match', 404);
    return responseOf(matchId, match.analysis);
  }

  /** Queues the analysis of an ended match, or answers the one already stored or under way. */
  async request(playerId: string, address: string, matchId: string): Promise<{ created: boolean; analysis: AnalysisResponse }> {
    const cap = {
      key: `address:${address}`,
      limit: this.settings.perAddress,
      refusal: () => new ServiceError(ErrorCode.AnalysisBusy, 'Your network already waits on enough analyses; try again when they are done', 429),
    };
    const outcome = await this.byAddress.admit([cap], async () => {
      const result = await this.queue(playerId, matchId);
      return { id: matchId, result };
    });
    if (outcome.created) this.queued();
    return { created: outcome.created, analysis: responseOf(matchId, outcome.row) };
  }

  private queue(playerId: string, matchId: string) {
    return this.db.prisma.$transaction(async (tx) => {
      // Taken first, so two requests for one match cannot both find no row.
      await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${QUEUE_LOCK_CLASS}::int4, 0)`;
      const match = await tx.match.findUnique({ where: { id: matchId }, select: { status: true, analysis: true, _count: { select: { moves: true } } } });
      if (!match) throw new ServiceError(ErrorCode.MatchNotFound, 'No such match', 404);
      if (match.status !== 'ended') throw new ServiceError(ErrorCode.MatchNotEnded, 'Only a finished match can be analysed', 409);
      if (match.analysis && match.analysis.status !== 'failed') return { created: false, row: match.analysis };
      const pending = await tx.matchAnalysis.count({ where: { status: { in: PENDING } } });
      if (pending >= this.settings.queueMax) {
        throw new ServiceError(ErrorCode.AnalysisBusy, 'Too many analyses are waiting; try again in a few minutes', 503);
      }
      const own = await tx.matchAnalysis.count({ where: { status: { in: PENDING }, requestedById: playerId } });
      if (own >= this.settings.perPlayer) {
        throw new ServiceError(ErrorCode.AnalysisBusy, 'Your earlier analyses are still running; try again when they are done', 429);
      }
      const fresh = { status: 'queued', depth: this.settings.depth, done: 0, total: match._count.moves, result: undefined, requestedById: playerId, updatedAt: new Date() };
      const row = match.analysis
        ? await tx.matchAnalysis.update({ where: { matchId }, data: { ...fresh, result: { plies: [] } } })
        : await tx.matchAnalysis.create({ data: { ...fresh, matchId, result: { plies: [] } } });
      return { created: true, row };
    });
  }
}

function responseOf(matchId: string, row: MatchAnalysis | null): AnalysisResponse {
  if (!row) return { matchId, status: 'none', progress: { done: 0, total: 0 }, depth: null, plies: null, accuracy: null };
  const stored = row.result as unknown as StoredAnalysis | null;
  const done = row.status === 'done';
  const plies = done ? (stored?.plies ?? []).map(judged) : null;
  return {
    matchId,
    status: row.status as AnalysisResponse['status'],
    progress: { done: row.done, total: row.total },
    depth: row.depth,
    plies,
    // Each seat's mean over the plies as judged today, not as stored.
    accuracy: plies ? accuracyOf(plies.map((p) => ({ player: p.seat, accuracy: p.accuracy }))) : null,
  };
}

/**
 * A stored ply judged as the engine judges today, from the values it kept:
 * analyses stored under earlier judgements (by points lost alone, then by
 * win chance lost alone) are read by both. A ply with an endgame proof keeps
 * the chance lost the engine took from the proved outcome.
 */
function judged(ply: PlyAnalysis): PlyAnalysis {
  const lost = ply.bestPlay === undefined ? chanceLost(ply.eval, ply.playedEval) : ply.chanceLost;
  // The engine's own move, or a forced one (whose accuracy is 100), lost nothing.
  if (ply.pointsLost === 0 && lost === 0) return { ...ply, chanceLost: lost, label: 'best' };
  return { ...ply, chanceLost: lost, ...judgeMove(lost, ply.pointsLost) };
}
