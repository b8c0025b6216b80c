/**
 * Limits both sides know. A socket message (its whole frame) larger than `maxEventBytes` is
 * rejected with PAYLOAD_TOO_LARGE; one larger than `maxTransportBytes` never
 * reaches the application (the transport drops the connection).
 */
export const limits = {
  maxEventBytes: 2048,
  maxTransportBytes: 16 * 1024,
  /** Token bucket per player, across all their sockets: a burst of this many messages… */
  rateBurst: 30,
  /** …refilled at this many per second. */
  ratePerSecond: 10,
  /** A client further behind than this many events gets a snapshot instead. */
  maxSyncEvents: 50,
  nameLength: { min: 1, max: 24 },
  usernameLength: { min: 3, max: 24 },
  /** Argon2 hashes any length; the cap only bounds the work a stranger can ask for. */
  passwordLength: { min: 8, max: 256 },
} as const;
