import { limits } from '@oanquan/protocol';
import type { ParserLimits } from './socket-parser.js';

/** Every limit of the socket edge. Tests lower them to show they work without sending thousands of messages. */
export interface SocketLimits extends ParserLimits {
  /** One token bucket per player, shared by all their sockets: a burst of this many events… */
  rateBurst: number;
  /** …refilled at this many per second. */
  ratePerSecond: number;
  /** Refusals a socket may draw at once (one more allowed per second) before it is disconnected for flooding. */
  maxRefusals: number;
  /** Sockets one player may hold open at once, and one remote address. */
  maxSocketsPerPlayer: number;
  maxSocketsPerAddress: number;
}

export const defaultSocketLimits: SocketLimits = {
  maxEventBytes: limits.maxEventBytes,
  maxEventDepth: 8,
  rateBurst: limits.rateBurst,
  ratePerSecond: limits.ratePerSecond,
  maxRefusals: 20,
  maxSocketsPerPlayer: 10,
  maxSocketsPerAddress: 1000,
};
