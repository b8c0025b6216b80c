import { DEFAULT_GLICKO, ErrorCode, PROVISIONAL_DEVIATION, type Leaderboard, type PlayerProfile, type PublicPlayer } from '@oanquan/protocol';
import type { Prisma } from '../generated/prisma/client.js';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { MatchHistory } from '../match-records/match-history.js';
import { ratingOf } from '../ratings/rating-service.js';

/** A guest without a row asking for their own profile: a new player's, under their token's name. */
async function newcomer(playerId: string, rowless: () => Promise<PublicPlayer | undefined>) {
  const asker = await rowless();
  if (asker?.id !== playerId) return null;
  return { id: asker.id, name: asker.name, botLevel: null, passwordHash: null, ...DEFAULT_GLICKO };
}

/** What anyone may see of a player: name, rating, record, recent matches; and the leaderboard. */
export class Profiles {
  constructor(
    private readonly db: Database,
    private readonly history: MatchHistory,
  ) {}

  /**
   * `rowless` names the asker when they are a guest who has not sat down yet
   * (no row): their own profile is a new player's, not a 404.
   */
  async profile(playerId: string, rowless: () => Promise<PublicPlayer | undefined> = async () => undefined): Promise<PlayerProfile> {
    const player = (await this.db.prisma.player.findUnique({ where: { id: playerId } })) ?? (await newcomer(playerId, rowless));
    if (!player) throw new ServiceError(ErrorCode.NotFound, 'No such player', 404);
    if ('closedAt' in player && player.closedAt) throw new ServiceError(ErrorCode.AccountClosed, 'This account was closed', 404);
    const decided = { status: 'ended' as const, NOT: { endReason: 'abort' } };
    const asSeat = (seat: 0 | 1) => (seat === 0 ? { player0Id: playerId } : { player1Id: playerId });
    const count = (where: object) => this.db.prisma.match.count({ where: { ...decided, ...where } });
    const [wins0, wins1, losses0, losses1, draws] = await Promise.all([
      count({ ...asSeat(0), winner: 0 }),
      count({ ...asSeat(1), winner: 1 }),
      count({ ...asSeat(0), winner: 1 }),
      count({ ...asSeat(1), winner: 0 }),
      count({ winner: null, OR: [asSeat(0), asSeat(1)] }),
    ]);
    const recent = await this.history.list({ status: 'finished', player: playerId, limit: 10 });
    return {
      id: player.id,
      name: player.name,
      botLevel: player.botLevel,
      account: player.passwordHash !== null,
      rating: ratingOf(player),
      record: { wins: wins0 + wins1, losses: losses0 + losses1, draws },
      byFirstMove: await this.byFirstMove(playerId),
      ratingHistory: await this.ratingHistory(playerId),
      recent: recent.matches,
    };
  }

  /** Decided matches (no abort) counted by whether this player moved first, and how they ended for them. */
  private async byFirstMove(playerId: string): Promise<PlayerProfile['byFirstMove']> {
    const rows = await this.db.prisma.$queryRaw<Array<{ moved_first: boolean; outcome: 'w' | 'l' | 'd'; n: number }>>`
      SELECT (first = seat) AS moved_first,
             CASE WHEN winner IS NULL THEN 'd' WHEN winner = seat THEN 'w' ELSE 'l' END AS outcome,
             count(*)::int AS n
      FROM (
        SELECT first, winner, CASE WHEN player0_id = ${playerId}::uuid THEN 0 ELSE 1 END AS seat
        FROM match
        WHERE status = 'ended' AND end_reason IS DISTINCT FROM 'abort' AND first IS NOT NULL
          AND (player0_id = ${playerId}::uuid OR player1_id = ${playerId}::uuid)
      ) seated
      GROUP BY 1, 2`;
    const tally = (movedFirst: boolean, outcome: 'w' | 'l' | 'd') =>
      rows.find((row) => row.moved_first === movedFirst && row.outcome === outcome)?.n ?? 0;
    const record = (movedFirst: boolean) => ({ wins: tally(movedFirst, 'w'), losses: tally(movedFirst, 'l'), draws: tally(movedFirst, 'd') });
    return { first: record(true), second: record(false) };
  }

  private async ratingHistory(playerId: string): Promise<PlayerProfile['ratingHistory']> {
    const rated = await this.db.prisma.match.findMany({
      where: { ratedAt: { not: null }, OR: [{ player0Id: playerId }, { player1Id: playerId }] },
      orderBy: { ratedAt: 'desc' },
      take: 100,
      select: { ratedAt: true, player0Id: true, ratingChanges: true },
    });
    return rated.reverse().flatMap((match) => {
      const change = (match.ratingChanges as Array<{ after: number }> | null)?.[match.player0Id === playerId ? 0 : 1];
      return change ? [{ at: match.ratedAt!.toISOString(), rating: change.after }] : [];
    });
  }

  /** Established players only: a provisional rating says too little to rank. */
  async leaderboard(limit = 50): Promise<Leaderboard> {
    // A new site has no established player for a long time; provisional players follow them, marked.
    const ranked = (deviation: Prisma.FloatFilter) =>
      this.db.prisma.player.findMany({
        where: { ratedGames: { gt: 0 }, deviation, closedAt: null },
        orderBy: [{ rating: 'desc' }, { id: 'asc' }],
        take: limit,
      });
    const established = await ranked({ lte: PROVISIONAL_DEVIATION });
    const provisional = established.length < limit ? await ranked({ gt: PROVISIONAL_DEVIATION }) : [];
    return {
      players: [...established, ...provisional].slice(0, limit).map((p) => ({
        id: p.id,
        name: p.name,
        rating: p.rating,
        deviation: p.deviation,
        games: p.ratedGames,
        provisional: p.deviation > PROVISIONAL_DEVIATION,
      })),
    };
  }
}
