import { formatRecord } from '@oanquan/rules';
import { ErrorCode, gameRecordOf, type MatchEventEnvelope, type MatchList, type MatchListParams, type MatchRecord, type MatchSummary, type Seat } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';
import { timeControlOf } from '../rooms/room-service.js';
import { decidedRounds, playedMoves, ratingChangesOf, resultOf, rulesOf, type MatchRow } from './match-store.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';

const summaryInclude = {
  room: { select: { code: true, initialMs: true, incrementMs: true } },
  player0: { select: { id: true, name: true, botLevel: true } },
  player1: { select: { id: true, name: true, botLevel: true } },
  rounds: { orderBy: { round: 'asc' } },
} as const satisfies Prisma.MatchInclude;

/** Reading finished and live matches back: lists, whole records, and the R7.2 text record. */
export class MatchHistory {
  constructor(private readonly db: Database) {}

  async list(query: MatchListParams): Promise<MatchList> {
    const live = query.status === 'live';
    const key = live ? 'createdAt' : 'endedAt';
    const cursor = query.before ? decodeCursor(query.before) : undefined;
    const where: Prisma.MatchWhereInput = {
      status: live ? { in: ['opener', 'playing'] } : 'ended',
      ...(query.rated === undefined ? {} : { rated: query.rated }),
      AND: [
        ...(query.player ? [{ OR: [{ player0Id: query.player }, { player1Id: query.player }] }] : []),
        ...(query.player && query.result ? [resultFilter(query.player, query.result)] : []),
        ...(cursor ? [{ OR: [{ [key]: { lt: cursor.at } }, { [key]: cursor.at, id: { lt: cursor.id } }] }] : []),
      ],
    };
    const rows = await this.db.prisma.match.findMany({
      where,
      orderBy: [{ [key]: 'desc' }, { id: 'desc' }],
      take: query.limit + 1,
      include: { ...summaryInclude, _count: { select: { moves: true } } },
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const next = rows.length > query.limit && last ? encodeCursor({ at: last[key] ?? new Date(0), id: last.id }) : null;
    return { matches: page.map((row) => summaryOf(row, row._count.moves)), next };
  }

  async record(matchId: string): Promise<MatchRecord> {
    const match = await this.db.prisma.match.findUnique({
      where: { id: matchId },
      include: { ...summaryInclude, moves: { orderBy: { ply: 'asc' } }, events: { orderBy: { version: 'asc' }, select: { payload: true } } },
    });
    if (!match) throw new ServiceError(ErrorCode.MatchNotFound, 'No such match', 404);
    const first = seatValue(match.first);
    const moves = first === null ? [] : playedMoves(first, match.moves);
    const clockStarts = clockStartsByPly(match.events.map((e) => e.payload as unknown as MatchEventEnvelope));
    return {
      ...summaryOf(match, match.moves.length),
      number: match.number,
      rules: rulesOf(match),
      ratings: ratingChangesOf(match),
      first,
      opener: decidedRounds(match).map((round) => ({
        ...round,
        at: (match.rounds.find((r) => r.round === round.round)?.decidedAt ?? match.createdAt).toISOString(),
      })),
      moves: moves.map((move, i) => ({ ...move, at: match.moves[i]!.createdAt.toISOString(), clockStartsAt: clockStarts.get(move.ply) ?? null })),
      createdAt: match.createdAt.toISOString(),
    };
  }

  /** R7.2. Endings the rules did not make (resign, timeout, …) are the record's termination. */
  async recordText(matchId: string): Promise<string> {
    const match = await this.record(matchId);
    return formatRecord(gameRecordOf(match, [match.players[0]?.name ?? '?', match.players[1]?.name ?? '?'], `/m/${match.id}`));
  }
}

function summaryOf(match: Omit<MatchRow, 'version' | 'position'> & Pick<MatchRow, 'version' | 'position'>, plies: number): MatchSummary {
  return {
    id: match.id,
    roomCode: match.room.code,
    status: match.status,
    players: [match.player0, match.player1],
    timeControl: timeControlOf(match.room),
    rated: match.rated,
    result: resultOf(match),
    plies,
    startedAt: match.startedAt?.toISOString() ?? null,
    endedAt: match.endedAt?.toISOString() ?? null,
  };
}

/** When each move's `moved` event said the next clock starts: the start of its turn, allowance and commit included. */
function clockStartsByPly(envelopes: MatchEventEnvelope[]): Map<number, string> {
  const starts = new Map<number, string>();
  let ply = 0;
  for (const { event } of envelopes) {
    if (event.type !== 'moved') continue;
    ply++;
    if (event.clocks && event.clocks.running !== null) starts.set(ply, event.clocks.startsAt ?? event.clocks.asOf);
  }
  return starts;
}

function seatValue(value: number | null): Seat | null {
  return value === 0 || value === 1 ? value : null;
}

/** The ended matches a player won, lost or drew; an abort is none of these. */
function resultFilter(player: string, result: 'win' | 'loss' | 'draw'): Prisma.MatchWhereInput {
  if (result === 'draw') return { status: 'ended', winner: null, NOT: { endReason: 'abort' } };
  const won = result === 'win';
  return { OR: [{ player0Id: player, winner: won ? 0 : 1 }, { player1Id: player, winner: won ? 1 : 0 }] };
}
