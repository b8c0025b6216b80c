import { ErrorCode, arenaLimits, type ArenaList, type ArenaSummary, type ArenaView, type PublicPlayer, type createArenaRequest } from '@oanquan/protocol';
import type { z } from 'zod';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import { guestRemoved } from '../players/guest-removed.js';
import { newRoomCode } from '../rooms/room-code.js';
import { asJson, rulesFromChoice } from '../rooms/room-service.js';
import { ArenaBoard } from './arena-board.js';
import { ArenaBoards } from './arena-boards.js';
import { ARENA_REPEAT_AFTER_MS } from './arena-pairing.js';
import { phaseOf, summaryOf, viewOf, type ArenaGameRow, type ArenaRow } from './arena-store.js';

const arenaColumns = { id: true, code: true, name: true, pool: true, rules: true, rated: true, startsAt: true, endsAt: true, finishedAt: true } as const;

/** Private arenas one account may have before they finish: a club's week, not a flood of rows. */
export const OPEN_ARENAS_PER_ACCOUNT = 5;

/** Scheduled arenas finished this long ago still show on the list. */
const FINISHED_LISTED_MS = 2 * 3600_000;

export type ArenaPlayed = ArenaSummary & { rank: number; score: number };

/** Arenas as people see them: made, joined, paused, read. Pairing is the director's (arena-director.ts). */
export class ArenaService {
  private readonly boards: ArenaBoards;

  /**
   * `freshMs`: how long a read of an arena's rows serves its readers (the director's tick; 0 reads them at every read);
   * `repeatAfterMs`: the director's, for when a waiting pair meets again.
   */
  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
    freshMs = 0,
    private readonly repeatAfterMs = ARENA_REPEAT_AFTER_MS,
  ) {
    this.boards = new ArenaBoards(db, freshMs, now);
  }

  /** A private arena of an account; casual, reached only by its code. */
  async create(creator: PublicPlayer, body: z.output<typeof createArenaRequest>): Promise<ArenaView> {
    const account = await this.db.prisma.player.findUnique({ where: { id: creator.id }, select: { passwordHash: true } });
    if (!account?.passwordHash) throw new ServiceError(ErrorCode.AccountRequired, 'Keep your account to make an arena', 403);
    const now = this.now();
    const open = await this.db.prisma.arena.count({ where: { createdById: creator.id, finishedAt: null } });
    if (open >= OPEN_ARENAS_PER_ACCOUNT) {
      throw new ServiceError(ErrorCode.TooManyArenas, `An account may have ${OPEN_ARENAS_PER_ACCOUNT} arenas not yet finished`, 429);
    }
    const startsAt = new Date(body.startsAt);
    if (startsAt.getTime() < now.getTime() - 60_000 || startsAt.getTime() > now.getTime() + arenaLimits.maxDaysAhead * 24 * 3600_000) {
      throw new ServiceError(ErrorCode.BadRequest, `An arena starts between now and ${arenaLimits.maxDaysAhead} days from now`, 400);
    }
    const begins = startsAt < now ? now : startsAt;
    const arena = await this.db.prisma.arena.create({
      data: {
        code: newRoomCode(),
        name: 'private',
        pool: body.pool,
        rules: asJson(rulesFromChoice(body.rules)),
        rated: false,
        startsAt: begins,
        endsAt: new Date(begins.getTime() + body.minutes * 60_000),
        createdById: creator.id,
      },
      select: arenaColumns,
    });
    return viewOf(arena, new ArenaBoard<ArenaGameRow>(), 1, null, now, this.repeatAfterMs);
  }

  /** One page of the standings, and the reader's own line. */
  async view(code: string, page = 1, reader: string | null = null): Promise<ArenaView> {
    const { arena, board } = await this.boards.read(code);
    return viewOf(arena, board, page, reader, this.now(), this.repeatAfterMs);
  }

  /** Joining again resumes a paused player. Rated arenas are for accounts, as the rated queue is. `found`: the arena, if just read. */
  async join(code: string, player: PublicPlayer, found?: ArenaRow): Promise<ArenaRow> {
    const arena = found ?? (await this.find(code));
    if (phaseOf(arena, this.now()) === 'finished' || this.now() >= arena.endsAt) throw new ServiceError(ErrorCode.ArenaOver, 'This arena is over', 409);
    const row = await this.db.prisma.player.findUnique({ where: { id: player.id }, select: { rating: true, passwordHash: true } });
    if (!row) throw guestRemoved();
    if (arena.rated && row.passwordHash === null) throw new ServiceError(ErrorCode.AccountRequired, 'Rated arenas need an account', 403);
    const entrant = await this.db.prisma.arenaPlayer.upsert({
      where: { arenaId_playerId: { arenaId: arena.id, playerId: player.id } },
      create: { arenaId: arena.id, playerId: player.id, rating: row.rating, activeSince: this.now() },
      update: { active: true, activeSince: this.now() },
      select: { playerId: true, rating: true, active: true, activeSince: true, joinedAt: true },
    });
    this.boards.changed(code, (board) => board.setEntrant({ ...entrant, name: player.name }));
    return arena;
  }

  /** Paused players are not paired again; the game they are playing still counts. */
  async pause(code: string, player: PublicPlayer): Promise<ArenaRow> {
    const arena = await this.find(code);
    // active_since marks the change for the next read of the entrants (refreshBoard); a paused player's is not used otherwise.
    await this.db.prisma.arenaPlayer.updateMany({ where: { arenaId: arena.id, playerId: player.id }, data: { active: false, activeSince: this.now() } });
    this.boards.changed(code, (board) => board.pause([player.id]));
    return arena;
  }

  /** Scheduled arenas: running, upcoming, and finished in the last hours. */
  async list(): Promise<ArenaList> {
    const now = this.now();
    const arenas = await this.db.prisma.arena.findMany({
      where: { schedule: { not: null }, OR: [{ finishedAt: null }, { finishedAt: { gt: new Date(now.getTime() - FINISHED_LISTED_MS) } }] },
      orderBy: { startsAt: 'asc' },
      select: { ...arenaColumns, _count: { select: { players: true } } },
      take: 20,
    });
    return { now: now.toISOString(), arenas: arenas.map((arena) => summaryOf(arena, arena._count.players, now)) };
  }

  /** The arenas a player took part in, latest first, with their final (or current) rank. */
  async playedBy(playerId: string, limit = 20): Promise<ArenaPlayed[]> {
    const rows = await this.db.prisma.arenaPlayer.findMany({
      where: { playerId },
      orderBy: { joinedAt: 'desc' },
      take: limit,
      select: { arena: { select: { ...arenaColumns, _count: { select: { players: true } } } } },
    });
    const now = this.now();
    return Promise.all(
      rows.map(async ({ arena }) => {
        const mine = (await this.boards.read(arena.code)).board.standingOf(playerId);
        return { ...summaryOf(arena, arena._count.players, now), rank: mine?.rank ?? 0, score: mine?.score ?? 0 };
      }),
    );
  }

  async find(code: string): Promise<ArenaRow> {
    const arena = await this.db.prisma.arena.findUnique({ where: { code }, select: arenaColumns });
    if (!arena) throw new ServiceError(ErrorCode.ArenaNotFound, 'No such arena', 404);
    return arena;
  }
}
