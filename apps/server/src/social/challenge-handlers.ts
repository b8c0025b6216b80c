import type { Ack, ClientPayload } from '@oanquan/protocol';
import type { GameSocket } from '../realtime/game-server.js';
import { lobbyChannel, type ChallengeService } from './challenge-service.js';

type ChallengeEvent = 'lobby:watch' | 'lobby:unwatch' | 'challenge:open' | 'challenge:direct' | 'challenge:cancel' | 'challenge:accept' | 'challenge:decline';
type ChallengeHandlers = { [E in ChallengeEvent]: (socket: GameSocket, payload: ClientPayload<E>) => Promise<Ack<E>> };

/**
 * The socket events of challenges. Making one is paid for as a room is (per
 * person and per address), taking one as a seat is; following the lobby,
 * cancelling and declining cost nothing.
 */
export function challengeHandlers(
  challenges: ChallengeService,
  pay: (socket: GameSocket, cost: 'challenge' | 'seat') => Promise<void>,
): ChallengeHandlers {
  return {
    // Subscribe before reading, so an open challenge made in between is not missed (the client keeps one copy per id).
    'lobby:watch': async (socket) => {
      await socket.join(lobbyChannel);
      return { ok: true, challenges: await challenges.openList(socket.data.player.id) };
    },
    'lobby:unwatch': async (socket) => {
      await socket.leave(lobbyChannel);
      return { ok: true };
    },
    'challenge:open': async (socket, terms) => {
      await pay(socket, 'challenge');
      return { ok: true, challenge: await challenges.create(socket.data.player, socket.data.address, terms) };
    },
    'challenge:direct': async (socket, { to, ...terms }) => {
      await pay(socket, 'challenge');
      return { ok: true, challenge: await challenges.create(socket.data.player, socket.data.address, terms, to) };
    },
    'challenge:cancel': async (socket, { id }) => {
      await challenges.cancel(socket.data.player.id, id);
      return { ok: true };
    },
    'challenge:accept': async (socket, { id }) => {
      await pay(socket, 'seat');
      return { ok: true, ...(await challenges.accept(socket.data.player, id)) };
    },
    'challenge:decline': async (socket, { id }) => {
      await challenges.decline(socket.data.player.id, id);
      return { ok: true };
    },
  };
}
