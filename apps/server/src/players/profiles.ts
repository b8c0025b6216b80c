import { ErrorCode, type Leaderboard, type PlayerProfile } from '@oanquan/protocol';
import type { Prisma } from '../generated/prisma/client.js';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { MatchHistory } from '../matches/match-history.js';
import { ratingOf } from '../ratings/rating-service.js';
import { PROVISIONAL_DEVIATION } from '../ratings/glicko2.js';

/** What anyone may see of a player: name, rating, record, recent matches; and the leaderboard. */
export class Profiles {
  constructor(
    private readonly db: Database,
    private readonly history: MatchHistory,
  ) {}

  async profile(playerId: string): Promise<PlayerProfile> {
    const player = await this.db.prisma.player.findUnique({ where: { id: playerId } });
    if (!player) throw new ServiceError(ErrorCode.NotFound, 'No such player', 404);
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
      rating: ratingOf(player),
      record: { wins: wins0 + wins1, losses: losses0 + losses1, draws },
      recent: recent.matches,
    };
  }

  /** Established players only: a provisional rating says too little to rank. */
  async leaderboard(limit = 50): Promise<Leaderboard> {
    // A new site has no established player for a long time; provisional players follow them, marked.
    const ranked = (deviation: Prisma.FloatFilter) =>
      this.db.prisma.player.findMany({
        where: { ratedGames: { gt: 0 }, deviation },
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
