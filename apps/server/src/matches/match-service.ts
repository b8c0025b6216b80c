import { newGame, play, type Player } from '@oanquan/rules';
import {
  ErrorCode,
  limits,
  type ClientPayload,
  type MatchEvent,
  type MatchEventEnvelope,
  type MatchSnapshot,
  type PublicPlayer,
  type Seat,
} from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import { asJson } from '../rooms/room-service.js';
import { GameCache } from './game-cache.js';
import { KeyedQueue } from './keyed-queue.js';
import {
  commitEvents,
  loadMatch,
  loadMoves,
  openRound,
  playedMoves,
  rulesOf,
  seatOf,
  snapshotOf,
  type MatchRow,
  type Tx,
} from './match-store.js';
import { roundWinner } from './opener.js';

/** Where committed events go: the Socket.IO room of the match's room code. */
export type Publish = (roomCode: string, envelopes: MatchEventEnvelope[]) => void;

/**
 * The referee. Every change runs in the match's queue, checks its
 * preconditions in a fixed order, commits its events in one transaction,
 * and only then publishes them; the caller acknowledges after that.
 */
export class MatchService {
  private readonly queue = new KeyedQueue();
  private readonly games = new GameCache();

  constructor(
    private readonly db: Database,
    private readonly publish: Publish,
  ) {}

  /** Takes a free seat of the room's current match, or gives the player's seat back; anyone else watches. */
  async join(code: string, player: PublicPlayer): Promise<{ seat: Seat | null; snapshot: MatchSnapshot }> {
    const current = await this.db.prisma.match.findFirst({
      where: { room: { code } },
      orderBy: { number: 'desc' },
      select: { id: true },
    });
    if (!current) throw new ServiceError(ErrorCode.RoomNotFound, `No room ${code}`, 404);
    return this.change(current.id, async (tx, match) => {
      const held = seatOf(match, player.id);
      if (held !== null || match.status !== 'waiting') return { result: held, events: [] };
      const seat: Seat = match.player0Id === null ? 0 : 1;
      const bothSeated = seat === 1 ? match.player0Id !== null : match.player1Id !== null;
      const update = seat === 0 ? { player0Id: player.id } : { player1Id: player.id };
      return {
        result: seat,
        events: [{ type: 'seated', seat, player }],
        update: { ...update, ...(bothSeated ? { status: 'opener' as const } : {}) },
      };
    }).then(async ({ result, snapshot }) => ({ seat: result, snapshot }));
  }

  /** One hand of rock–paper–scissors; hidden until both are in, a tie opens the next round, the winner moves first. */
  async chooseHand(player: PublicPlayer, { matchId, choice }: ClientPayload<'opener:choose'>): Promise<number> {
    const { snapshot } = await this.change(matchId, async (tx, match) => {
      if (match.status !== 'opener') throw new ServiceError(ErrorCode.NotInOpener, 'The opener is not being played');
      const seat = requireSeat(match, player.id);
      const open = openRound(match);
      const round = open?.round ?? (match.rounds.at(-1)?.round ?? 0) + 1;
      if (open?.[seat === 0 ? 'choice0' : 'choice1'] != null) {
        throw new ServiceError(ErrorCode.AlreadyChosen, 'You have already chosen this round');
      }
      const events: MatchEvent[] = [{ type: 'opener-chosen', seat, round }];
      const mine = seat === 0 ? { choice0: choice } : { choice1: choice };
      const other = open?.[seat === 0 ? 'choice1' : 'choice0'] as typeof choice | null | undefined;
      if (!other) {
        await tx.openerRound.create({ data: { matchId, round, ...mine } });
        return { result: null, events };
      }
      const choices = (seat === 0 ? [choice, other] : [other, choice]) as [typeof choice, typeof choice];
      const winner = roundWinner(choices[0], choices[1]);
      await tx.openerRound.update({
        where: { matchId_round: { matchId, round } },
        data: { ...mine, winner, decidedAt: new Date() },
      });
      events.push({ type: 'opener-round', round, choices, winner });
      if (winner === null) return { result: null, events };
      events.push({ type: 'started', first: winner });
      const position = newGame({ rules: rulesOf(match), first: winner }).position;
      return {
        result: null,
        events,
        update: { status: 'playing', first: winner, startedAt: new Date(), position: asJson(position) },
      };
    });
    return snapshot.version;
  }

  /** design.md "One move, end to end", steps 4–6. */
  async move(player: PublicPlayer, payload: ClientPayload<'move'>): Promise<number> {
    const { matchId, moveId, version, square, dir } = payload;
    return this.queue.run(matchId, () =>
      this.db.prisma.$transaction(async (tx) => {
        const match = await loadMatch(tx, matchId);
        const earlier = await tx.move.findUnique({ where: { matchId_moveId: { matchId, moveId } } });
        if (earlier) {
          if (earlier.playerId !== player.id) throw new ServiceError(ErrorCode.BadRequest, 'That move id is taken');
          return { version: earlier.version, envelopes: [], roomCode: match.room.code };
        }
        if (match.status !== 'playing') throw new ServiceError(ErrorCode.NotInPlay, 'The match is not in play');
        const seat = requireSeat(match, player.id);
        const before = await this.gameOf(tx, match);
        if (before.position.toMove !== seat) throw new ServiceError(ErrorCode.NotYourTurn, 'It is not your turn');
        if (version !== match.version) {
          throw new ServiceError(ErrorCode.StaleVersion, `You saw version ${version}; the match is at ${match.version}`, 409);
        }
        const played = play(before, { square, dir });
        if (!played.ok) throw new ServiceError(played.code, illegalMoveMessage(played.code));

        const after = played.state;
        const ply = after.position.ply;
        const [playedMove] = playedMoves(match.first as Seat, [{ ply, square, dir }]);
        const events: MatchEvent[] = [{ type: 'moved', move: playedMove!, events: [...played.events], position: after.position }];
        const result = after.position.result;
        if (result) events.push({ type: 'ended', result: { winner: result.winner, reason: result.reason, score: result.score } });
        const newVersion = match.version + events.length;
        await tx.move.create({ data: { matchId, ply, moveId, playerId: player.id, square, dir, version: newVersion } });
        const envelopes = await commitEvents(tx, match, events, {
          position: asJson(after.position),
          ...(result
            ? { status: 'ended', winner: result.winner, endReason: result.reason, score0: result.score[0], score1: result.score[1], endedAt: new Date() }
            : {}),
        });
        this.games.set(matchId, newVersion, after);
        return { version: newVersion, envelopes, roomCode: match.room.code };
      }),
    ).then(({ version: newVersion, envelopes, roomCode }) => {
      if (envelopes.length) this.publish(roomCode, envelopes);
      return newVersion;
    });
  }

  async roomCodeOf(matchId: string): Promise<string> {
    const match = await this.db.prisma.match.findUnique({ where: { id: matchId }, select: { room: { select: { code: true } } } });
    if (!match) throw new ServiceError(ErrorCode.MatchNotFound, 'No such match', 404);
    return match.room.code;
  }

  /**
   * What a client missed since `version`: the events themselves, which it
   * can animate, or a snapshot when the gap is long (a snapshot is then
   * shorter to send and to apply) or the version is one the match never had.
   */
  async sync(matchId: string, version: number): Promise<{ events: MatchEventEnvelope[] } | { snapshot: MatchSnapshot }> {
    const match = await this.db.prisma.match.findUnique({ where: { id: matchId }, select: { version: true } });
    if (!match) throw new ServiceError(ErrorCode.MatchNotFound, 'No such match', 404);
    if (version > match.version || match.version - version > limits.maxSyncEvents) return { snapshot: await this.snapshot(matchId) };
    const rows = await this.db.prisma.matchEvent.findMany({
      where: { matchId, version: { gt: version } },
      orderBy: { version: 'asc' },
      select: { payload: true },
    });
    return { events: rows.map((row) => row.payload as unknown as MatchEventEnvelope) };
  }

  async snapshot(matchId: string): Promise<MatchSnapshot> {
    return this.db.prisma.$transaction(async (tx) => snapshotOf(await loadMatch(tx, matchId), await loadMoves(tx, matchId)));
  }

  /**
   * The common shape of a change: in the match's queue and one transaction,
   * decide the events from the current row, commit them with the version
   * compare-and-set, then publish.
   */
  private async change<R>(
    matchId: string,
    decide: (tx: Tx, match: MatchRow) => Promise<{ result: R; events: MatchEvent[]; update?: Parameters<typeof commitEvents>[3] }>,
  ): Promise<{ result: R; snapshot: MatchSnapshot }> {
    // Another process may change the match between our read and our write;
    // the decision is then made again from the fresh row.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.changeOnce(matchId, decide);
      } catch (error) {
        if (!(error instanceof ServiceError && error.code === ErrorCode.StaleVersion) || attempt === 3) throw error;
      }
    }
  }

  private async changeOnce<R>(
    matchId: string,
    decide: (tx: Tx, match: MatchRow) => Promise<{ result: R; events: MatchEvent[]; update?: Parameters<typeof commitEvents>[3] }>,
  ): Promise<{ result: R; snapshot: MatchSnapshot }> {
    const { result, envelopes, snapshot } = await this.queue.run(matchId, () =>
      this.db.prisma.$transaction(async (tx) => {
        const match = await loadMatch(tx, matchId);
        const decision = await decide(tx, match);
        const envelopes = decision.events.length ? await commitEvents(tx, match, decision.events, decision.update) : [];
        const snapshot = snapshotOf(await loadMatch(tx, matchId), await loadMoves(tx, matchId));
        return { result: decision.result, envelopes, snapshot };
      }),
    );
    if (envelopes.length) this.publish(snapshot.roomCode, envelopes);
    return { result, snapshot };
  }

  private async gameOf(tx: Tx, match: MatchRow) {
    const cached = this.games.get(match.id, match.version);
    if (cached) return cached;
    const moves = await loadMoves(tx, match.id);
    const state = GameCache.rebuild(
      rulesOf(match),
      match.first as Player,
      moves.map((m) => ({ square: m.square, dir: m.dir === 1 ? 1 : -1 })),
    );
    this.games.set(match.id, match.version, state);
    return state;
  }
}

function requireSeat(match: MatchRow, playerId: string): Seat {
  const seat = seatOf(match, playerId);
  if (seat === null) throw new ServiceError(ErrorCode.NotAPlayer, 'You are watching this match, not playing it', 403);
  return seat;
}

function illegalMoveMessage(code: string): string {
  switch (code) {
    case 'ERR_EMPTY_SQUARE':
      return 'That square is empty';
    case 'ERR_NOT_YOUR_SQUARE':
      return 'You can only sow from your own citizen squares';
    case 'ERR_GAME_OVER':
      return 'The game is over';
    default:
      return 'That is not a move';
  }
}
