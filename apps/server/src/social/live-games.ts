import type { Position } from '@oanquan/rules';
import type { LiveGame } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import type { PresenceService } from '../presence/presence-service.js';
import { timeControlOf } from '../rooms/room-service.js';

/** Games in play read to rank: the most recently started, enough for a busy evening's best to be among them. */
const CANDIDATES = 200;

/**
 * The highest-rated games in play, by the stronger player's rating, with
 * their positions and spectator counts. Everyone asks for the same list, so
 * each process reads it at most once per `freshMs` and hands the same
 * answer to all who ask meanwhile.
 */
export class LiveGameList {
  private cached: { at: number; games: Promise<LiveGame[]> } | undefined;

  constructor(
    private readonly db: Database,
    private readonly presence: Pick<PresenceService, 'spectators'>,
    private readonly settings: { shown: number; freshMs: number },
  ) {}

  top(): Promise<LiveGame[]> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at >= this.settings.freshMs) {
      const games = this.read();
      this.cached = { at: now, games };
      // A failed read is not kept: the next caller reads again.
      games.catch(() => {
        if (this.cached?.games === games) this.cached = undefined;
      });
    }
    return this.cached.games;
  }

  private async read(): Promise<LiveGame[]> {
    const seat = { select: { id: true, name: true, rating: true, botLevel: true } } as const;
    const rows = await this.db.prisma.match.findMany({
      where: { status: 'playing', player0Id: { not: null }, player1Id: { not: null } },
      orderBy: { startedAt: 'desc' },
      take: CANDIDATES,
      select: { id: true, rated: true, position: true, room: { select: { code: true, initialMs: true, incrementMs: true } }, player0: seat, player1: seat },
    });
    const best = rows
      .flatMap((row) => (row.player0 && row.player1 ? [{ ...row, players: [row.player0, row.player1] as const }] : []))
      .sort((a, b) => Math.max(b.players[0].rating, b.players[1].rating) - Math.max(a.players[0].rating, a.players[1].rating))
      .slice(0, this.settings.shown);
    return Promise.all(
      best.map(async (row) => ({
        matchId: row.id,
        roomCode: row.room.code,
        players: [person(row.players[0]), person(row.players[1])] as LiveGame['players'],
        rated: row.rated,
        timeControl: timeControlOf(row.room),
        position: row.position as unknown as Position,
        spectators: await this.presence.spectators(row.room.code, [row.players[0].id, row.players[1].id]),
      })),
    );
  }
}

function person(player: { id: string; name: string; rating: number; botLevel: number | null }) {
  return { id: player.id, name: player.name, rating: Math.round(player.rating), botLevel: player.botLevel };
}
