import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, PublicPlayer, ServerToClientEvents } from '@oanquan/protocol';

/**
 * The Socket.IO server as every part of the server sees it, and the channel
 * names they publish to. It sits below the socket handlers, presence and the
 * matchmaker, so none of them imports another for these.
 */
export interface SocketData {
  player: PublicPlayer;
  /** The session the socket was opened with: revoking it closes the socket. */
  sessionId: string;
}
export type GameServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type GameSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** Everyone in a room: its players and spectators. */
export const roomChannel = (code: string) => `room:${code}`;
/** One player wherever they are connected (queue pairings), from any process. */
export const playerChannel = (playerId: string) => `player:${playerId}`;
/** Every socket opened with one session, closed together when it is revoked. */
export const sessionChannel = (sessionId: string) => `session:${sessionId}`;
