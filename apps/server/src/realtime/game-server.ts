import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, PublicPlayer, ServerToClientEvents } from '@oanquan/protocol';

/**
 * The Socket.IO server as every part of the server sees it, and the channel
 * names they publish to. It sits below the socket handlers, presence and the
 * matchmaker, so none of them imports another for these.
 */
export interface SocketData {
  player: PublicPlayer;
  /** The session the socket was opened with: revoking it closes the socket. A guest's signed token has none. */
  sessionId: string | null;
  /** Whether the player has a row: a guest gets theirs when they first sit down or queue. */
  hasRow: boolean;
  /** Where it connected from, as the connection limits counted it. */
  address: string;
}
/** None: what the processes tell each other goes on a channel of their own (redis-adapter.ts). */
export type InterServerEvents = Record<never, never>;
export type GameServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type GameSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** Everyone in a room: its players and spectators. */
export const roomChannel = (code: string) => `room:${code}`;
/** One player wherever they are connected (queue pairings), from any process. */
export const playerChannel = (playerId: string) => `player:${playerId}`;
/** Every socket opened with one session, closed together when it is revoked. */
export const sessionChannel = (sessionId: string) => `session:${sessionId}`;
