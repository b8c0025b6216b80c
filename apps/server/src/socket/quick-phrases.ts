import { ErrorCode, phraseRate, type ClientPayload } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { MatchService } from '../matches/match-service.js';
import { playerChannel, roomChannel, type GameServer, type GameSocket } from '../realtime/game-server.js';
import type { Blocks } from '../social/blocks.js';
import { PlayerRateLimiter } from './player-rate-limiter.js';

/**
 * Quick phrases in a room. A player's phrase reaches everyone in the room; a
 * spectator's reaches the other spectators only, never the players; no one's
 * reaches those who block them. Nothing is stored: a phrase is broadcast
 * through the adapter (so it reaches every process) and forgotten, and never
 * becomes a match event.
 */
export class QuickPhrases {
  private readonly rates = new PlayerRateLimiter(phraseRate.burst, phraseRate.perSecond);

  constructor(
    private readonly io: GameServer,
    private readonly matches: MatchService,
    private readonly blocks: Blocks,
  ) {}

  async say(socket: GameSocket, { matchId, phrase }: ClientPayload<'phrase:say'>): Promise<void> {
    const from = socket.data.player;
    const { code, player0Id, player1Id } = await this.matches.seatsOf(matchId);
    if (!socket.rooms.has(roomChannel(code))) throw new ServiceError(ErrorCode.NotInRoom, 'Join the room before speaking in it', 403);
    if (!this.rates.take(from.id)) throw new ServiceError(ErrorCode.TooManyPhrases, 'Too many quick messages; wait a few seconds', 429);
    const seat = player0Id === from.id ? 0 : player1Id === from.id ? 1 : null;
    const players = [player0Id, player1Id].flatMap((id) => (id === null ? [] : [playerChannel(id)]));
    // Whoever blocks the sender never hears them.
    const blockers = (await this.blocks.blockersOf(from.id)).map(playerChannel);
    this.io.to(roomChannel(code)).except(seat === null ? [...players, ...blockers] : blockers).emit('phrase', { matchId, phrase, seat, from });
  }
}
