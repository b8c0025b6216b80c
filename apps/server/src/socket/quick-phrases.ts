import { ErrorCode, phraseRate, type ClientPayload } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { Counters } from '../limits/counters.js';
import type { MatchService } from '../matches/match-service.js';
import { playerChannel, roomChannel, type GameServer, type GameSocket } from '../realtime/game-server.js';
import type { Blocks } from '../social/blocks.js';
import { PlayerRateLimiter } from './player-rate-limiter.js';

/** What a room's phrases may come to in a window: each player's, and all its spectators' together (ROOM_PHRASES_*). */
export interface RoomPhraseBudgets {
  windowMs: number;
  perPlayer: number;
  spectators: number;
}

/**
 * Quick phrases in a room. A player's phrase reaches everyone in the room; a
 * spectator's reaches the other spectators only, never the players; no one's
 * reaches those who block them. Nothing is stored: a phrase is broadcast
 * through the adapter (so it reaches every process) and forgotten, and never
 * becomes a match event.
 *
 * Each person has a rate of their own (on this process), and each room
 * budgets per window, counted across processes with Redis: its spectators
 * share one, since thirty at their own rate would still send the room
 * ninety phrases at once; each player has their own, so that neither a crowd of
 * spectators nor the opponent ever silences a player, and a player's sockets
 * on several processes do not multiply their rate.
 */
export class QuickPhrases {
  private readonly rates = new PlayerRateLimiter(phraseRate.burst, phraseRate.perSecond);

  constructor(
    private readonly io: GameServer,
    private readonly matches: MatchService,
    private readonly blocks: Blocks,
    private readonly counters: Counters,
    private readonly budgets: RoomPhraseBudgets,
  ) {}

  async say(socket: GameSocket, { matchId, phrase }: ClientPayload<'phrase:say'>): Promise<void> {
    const from = socket.data.player;
    const { code, player0Id, player1Id } = await this.matches.seatsOf(matchId);
    if (!socket.rooms.has(roomChannel(code))) throw new ServiceError(ErrorCode.NotInRoom, 'Join the room before speaking in it', 403);
    if (!this.rates.take(from.id)) throw new ServiceError(ErrorCode.TooManyPhrases, 'Too many quick messages; wait a few seconds', 429);
    const seat = player0Id === from.id ? 0 : player1Id === from.id ? 1 : null;
    const { value } = await this.counters.count(`phrases:${code}:${seat === null ? 'spectators' : `player:${from.id}`}`, this.budgets.windowMs);
    if (value > (seat === null ? this.budgets.spectators : this.budgets.perPlayer)) {
      throw new ServiceError(ErrorCode.TooManyPhrases, seat === null ? "The room's spectators have said a lot just now; wait a few seconds" : 'Too many quick messages; wait a few seconds', 429);
    }
    const players = [player0Id, player1Id].flatMap((id) => (id === null ? [] : [playerChannel(id)]));
    // Whoever blocks the sender never hears them.
    const blockers = (await this.blocks.blockersOf(from.id)).map(playerChannel);
    this.io.to(roomChannel(code)).except(seat === null ? [...players, ...blockers] : blockers).emit('phrase', { matchId, phrase, seat, from });
  }
}
