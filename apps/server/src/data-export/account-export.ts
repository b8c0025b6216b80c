import {
  DATA_EXPORT_FORMAT,
  DEFAULT_GLICKO,
  type ExportedArena,
  type ExportedChallenge,
  type ExportedFollow,
  type ExportedGame,
  type ExportedProfile,
  type ExportedRoom,
  type ExportedSession,
  type Seat,
} from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import type { Prisma } from '../generated/prisma/client.js';
import { decidedRounds, playedMoves, ratingChangesOf, resultOf, rulesOf, seatOf } from '../match-records/match-store.js';
import { defaultSettings } from '../players/player-settings.js';
import type { Identity } from '../players/player-service.js';
import { timeControlOf } from '../rooms/room-service.js';
import { afterKey, jsonObject, keysetPages, Pages, type PageRead, type RowKey } from './json-stream.js';

/** Rows read per query of the lists. */
export const EXPORT_PAGE_SIZE = 100;

/**
 * Games read per query, with their moves. Shaping a page of games is one
 * stretch of the event loop (a few milliseconds per ten games of forty
 * moves, bench/data-export.bench.ts), which other people's moves wait behind.
 */
export const EXPORT_GAMES_PAGE_SIZE = 20;

const publicSelect = { select: { id: true, name: true, botLevel: true } } as const;

const gameInclude = {
  room: { select: { code: true, initialMs: true, incrementMs: true } },
  player0: publicSelect,
  player1: publicSelect,
  rounds: { orderBy: { round: 'asc' } },
  arenaGame: { select: { arena: { select: { code: true } } } },
} as const satisfies Prisma.MatchInclude;

type GameRow = Prisma.MatchGetPayload<{ include: typeof gameInclude }>;

const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null) => date?.toISOString() ?? null;

/**
 * Everything the site holds about one person (docs/data-export.md), as the
 * pieces of one JSON document. Nothing is read until the pieces are pulled,
 * and lists are read a keyset page at a time without a transaction: a
 * transaction would hold a database connection for as long as the slowest
 * download (PGlite has one connection in all), so a game that ends during
 * the download may or may not be in it.
 */
export class AccountExport {
  constructor(
    private readonly db: Database,
    private readonly pageSizes = { rows: EXPORT_PAGE_SIZE, games: EXPORT_GAMES_PAGE_SIZE },
  ) {}

  /** The document's pieces, in the order of docs/data-export.md: small sections first, the games (the bulk) last. */
  document(identity: Identity, now = new Date()): AsyncGenerator<string> {
    const id = identity.player.id;
    return jsonObject([
      ['format', DATA_EXPORT_FORMAT],
      ['exportedAt', iso(now)],
      ['profile', () => this.profile(identity)],
      ['sessions', this.sessions(id, identity.session?.id ?? null)],
      ['following', this.following(id)],
      ['followers', async () => ({ count: await this.db.prisma.follow.count({ where: { followeeId: id } }) })],
      ['blocks', this.blocks(id)],
      ['queue', () => this.queue(id)],
      ['challenges', () => this.challenges(id)],
      ['rooms', this.rooms(id)],
      ['arenas', this.arenas(id)],
      ['analysisRequests', this.analysisRequests(id)],
      ['ratingHistory', this.ratingHistory(id)],
      ['puzzleAttempts', this.puzzleAttempts(id)],
      ['games', this.games(id)],
    ]);
  }

  /** The profile of a guest without a row is their token's: a new player's, with nothing stored. */
  private async profile(identity: Identity): Promise<ExportedProfile> {
    const id = identity.player.id;
    const row = await this.db.prisma.player.findUnique({ where: { id }, include: { puzzleRating: true } });
    if (!row) {
      return {
        id,
        name: identity.player.name,
        username: null,
        account: false,
        stored: false,
        createdAt: null,
        rating: { ...DEFAULT_GLICKO, ratedGames: 0 },
        puzzleRating: null,
        settings: defaultSettings,
      };
    }
    const solver = row.puzzleRating;
    return {
      id,
      name: row.name,
      username: row.username,
      account: row.passwordHash !== null,
      stored: true,
      createdAt: iso(row.createdAt),
      rating: { rating: row.rating, deviation: row.deviation, volatility: row.volatility, ratedGames: row.ratedGames },
      puzzleRating: solver && {
        rating: solver.rating,
        deviation: solver.deviation,
        volatility: solver.volatility,
        attempts: solver.attempts,
        solved: solver.solved,
        updatedAt: iso(solver.updatedAt),
      },
      settings: { challengesFrom: row.challengesFrom },
    };
  }

  private paged<Row, Out>(read: PageRead<Row>, key: (row: Row) => RowKey, shape: (rows: Row[]) => Out[] | Promise<Out[]>, pageSize = this.pageSizes.rows): Pages {
    return new Pages(
      (async function* () {
        for await (const rows of keysetPages(pageSize, read, key)) yield await shape(rows);
      })(),
    );
  }

  /** Never the token nor its hash: the session's id says which one it is. */
  private sessions(playerId: string, current: string | null): Pages {
    return this.paged(
      (after, take) =>
        this.db.prisma.session.findMany({
          where: { playerId, ...afterKey('createdAt', 'id', after) },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          take,
          select: { id: true, createdAt: true, lastSeenAt: true, expiresAt: true, revokedAt: true },
        }),
      (row) => ({ at: row.createdAt, id: row.id }),
      (rows) =>
        rows.map(
          (row): ExportedSession => ({
            id: row.id,
            createdAt: iso(row.createdAt),
            lastSeenAt: iso(row.lastSeenAt),
            expiresAt: iso(row.expiresAt),
            revokedAt: isoOrNull(row.revokedAt),
            current: row.id === current,
          }),
        ),
    );
  }

  private following(followerId: string): Pages {
    return this.paged(
      (after, take) =>
        this.db.prisma.follow.findMany({
          where: { followerId, ...afterKey('createdAt', 'followeeId', after) },
          orderBy: [{ createdAt: 'asc' }, { followeeId: 'asc' }],
          take,
          select: { createdAt: true, followeeId: true, followee: publicSelect },
        }),
      (row) => ({ at: row.createdAt, id: row.followeeId }),
      (rows) => rows.map((row): ExportedFollow => ({ player: row.followee, since: iso(row.createdAt) })),
    );
  }

  private blocks(blockerId: string): Pages {
    return this.paged(
      (after, take) =>
        this.db.prisma.playerBlock.findMany({
          where: { blockerId, ...afterKey('createdAt', 'blockedId', after) },
          orderBy: [{ createdAt: 'asc' }, { blockedId: 'asc' }],
          take,
          select: { createdAt: true, blockedId: true, blocked: publicSelect },
        }),
      (row) => ({ at: row.createdAt, id: row.blockedId }),
      (rows) => rows.map((row): ExportedFollow => ({ player: row.blocked, since: iso(row.createdAt) })),
    );
  }

  private async queue(playerId: string) {
    const entry = await this.db.prisma.queueEntry.findUnique({ where: { playerId }, select: { pool: true, rated: true, joinedAt: true } });
    return entry && { pool: entry.pool, rated: entry.rated, joinedAt: iso(entry.joinedAt) };
  }

  /** A few at most (they are capped per player and lapse within minutes); another's address is never shown, only the asker's own. */
  private async challenges(playerId: string): Promise<ExportedChallenge[]> {
    const rows = await this.db.prisma.challenge.findMany({
      where: { OR: [{ creatorId: playerId }, { targetId: playerId }] },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { creator: publicSelect, target: publicSelect },
    });
    return rows.map((row) => {
      const made = row.creatorId === playerId;
      return {
        id: row.id,
        direction: made ? 'made' : 'received',
        other: made ? row.target : row.creator,
        rules: rulesOf(row),
        timeControl: timeControlOf(row),
        rated: row.rated,
        createdAt: iso(row.createdAt),
        expiresAt: isoOrNull(row.expiresAt),
        address: made ? row.address : null,
      };
    });
  }

  private rooms(createdById: string): Pages {
    return this.paged(
      (after, take) =>
        this.db.prisma.room.findMany({
          where: { createdById, ...afterKey('createdAt', 'id', after) },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          take,
        }),
      (row) => ({ at: row.createdAt, id: row.id }),
      (rows) =>
        rows.map((row): ExportedRoom => ({ code: row.code, rules: rulesOf(row), timeControl: timeControlOf(row), rated: row.rated, createdAt: iso(row.createdAt) })),
    );
  }

  /** The arenas joined, then those made and not joined. */
  private arenas(playerId: string): Pages {
    const arena = (row: { code: string; name: string; startsAt: Date; endsAt: Date; createdById: string | null }) => ({
      code: row.code,
      name: row.name,
      startsAt: iso(row.startsAt),
      endsAt: iso(row.endsAt),
      madeByYou: row.createdById === playerId,
    });
    const joined = this.paged(
      (after, take) =>
        this.db.prisma.arenaPlayer.findMany({
          where: { playerId, ...afterKey('joinedAt', 'arenaId', after) },
          orderBy: [{ joinedAt: 'asc' }, { arenaId: 'asc' }],
          take,
          include: { arena: true },
        }),
      (row) => ({ at: row.joinedAt, id: row.arenaId }),
      (rows) => rows.map((row): ExportedArena => ({ ...arena(row.arena), joined: { at: iso(row.joinedAt), rating: row.rating, active: row.active } })),
    );
    const made = this.paged(
      (after, take) =>
        this.db.prisma.arena.findMany({
          where: { createdById: playerId, players: { none: { playerId } }, ...afterKey('createdAt', 'id', after) },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          take,
        }),
      (row) => ({ at: row.createdAt, id: row.id }),
      (rows) => rows.map((row): ExportedArena => ({ ...arena(row), joined: null })),
    );
    return new Pages(
      (async function* () {
        yield* joined.pages;
        yield* made.pages;
      })(),
    );
  }

  private analysisRequests(requestedById: string): Pages {
    return this.paged(
      (after, take) =>
        this.db.prisma.matchAnalysis.findMany({
          where: { requestedById, ...afterKey('createdAt', 'matchId', after) },
          orderBy: [{ createdAt: 'asc' }, { matchId: 'asc' }],
          take,
          select: { matchId: true, status: true, createdAt: true },
        }),
      (row) => ({ at: row.createdAt, id: row.matchId }),
      (rows) => rows.map((row) => ({ matchId: row.matchId, status: row.status, requestedAt: iso(row.createdAt) })),
    );
  }

  /** The asker's side of every match that changed their rating, oldest first. */
  private ratingHistory(playerId: string): Pages {
    return this.paged(
      (after, take) =>
        this.db.prisma.match.findMany({
          where: {
            ratedAt: { not: null },
            AND: [{ OR: [{ player0Id: playerId }, { player1Id: playerId }] }, afterKey('ratedAt', 'id', after)],
          },
          orderBy: [{ ratedAt: 'asc' }, { id: 'asc' }],
          take,
          select: { id: true, ratedAt: true, player0Id: true, player1Id: true, ratingChanges: true },
        }),
      (row) => ({ at: row.ratedAt!, id: row.id }),
      (rows) =>
        rows.flatMap((row) => {
          const change = ratingChangesOf(row)?.[seatOf(row, playerId) ?? 0];
          return change ? [{ matchId: row.id, at: iso(row.ratedAt!), before: change.before, after: change.after }] : [];
        }),
    );
  }

  private puzzleAttempts(playerId: string): Pages {
    return this.paged(
      (after, take) =>
        this.db.prisma.puzzleAttempt.findMany({
          where: { playerId, ...afterKey('createdAt', 'puzzleId', after) },
          orderBy: [{ createdAt: 'asc' }, { puzzleId: 'asc' }],
          take,
        }),
      (row) => ({ at: row.createdAt, id: row.puzzleId }),
      (rows) =>
        rows.map((row) => ({ puzzleId: row.puzzleId, at: iso(row.createdAt), solved: row.solved, ratingBefore: row.ratingBefore, ratingAfter: row.ratingAfter })),
    );
  }

  /** Every match the asker holds a seat in, oldest first, a page of matches and then one query for all their moves. */
  private games(playerId: string): Pages {
    return this.paged(
      (after, take) =>
        this.db.prisma.match.findMany({
          where: { AND: [{ OR: [{ player0Id: playerId }, { player1Id: playerId }] }, afterKey('createdAt', 'id', after)] },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          take,
          include: gameInclude,
        }),
      (row) => ({ at: row.createdAt, id: row.id }),
      async (rows) => {
        // Aggregated by the database, one JSON array per game: mapping every move to an object of Prisma's own was most of a page's time.
        const moves = await this.db.prisma.$queryRaw<Array<{ matchId: string; moves: MoveTuple[] }>>`
          SELECT match_id AS "matchId",
                 json_agg(json_build_array(ply, square, dir, remaining_ms, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY ply) AS moves
          FROM move WHERE match_id = ANY(${rows.map((row) => row.id)}::uuid[]) GROUP BY match_id`;
        const byMatch = new Map(moves.map((game) => [game.matchId, game.moves]));
        return rows.map((row) => gameOf(row, playerId, byMatch.get(row.id) ?? []));
      },
      this.pageSizes.games,
    );
  }
}

/** A move as the database aggregates it: ply, square, dir, remaining time, and when it was made (as toISOString() writes it). */
type MoveTuple = [number, number, number, number | null, string];

function gameOf(row: GameRow, playerId: string, tuples: MoveTuple[]): ExportedGame {
  const moves = tuples.map(([ply, square, dir, remainingMs, at]) => ({ ply, square, dir, remainingMs, at }));
  const first = row.first === 0 || row.first === 1 ? row.first : null;
  const seat = seatOf(row, playerId) as Seat;
  return {
    id: row.id,
    room: row.room.code,
    number: row.number,
    arena: row.arenaGame?.arena.code ?? null,
    status: row.status,
    rules: rulesOf(row),
    timeControl: timeControlOf(row.room),
    rated: row.rated,
    createdAt: iso(row.createdAt),
    startedAt: isoOrNull(row.startedAt),
    endedAt: isoOrNull(row.endedAt),
    players: [row.player0, row.player1],
    seat,
    first,
    result: resultOf(row),
    ratingChange: ratingChangesOf(row)?.[seat] ?? null,
    opener: decidedRounds(row),
    moves: first === null ? [] : playedMoves(first, moves).map((move, i) => ({ ...move, at: moves[i]!.at })),
  };
}
