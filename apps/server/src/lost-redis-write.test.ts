import { describe, expect, it } from 'vitest';
import { isLostRedisWrite } from './lost-redis-write.js';

const socketError = (code: string, frame: string) => Object.assign(new Error(`write ${code}`), { code, stack: `Error: write ${code}\n    at ${frame}` });

describe('isLostRedisWrite', () => {
  it('forgives only a connection error raised inside the Redis client', () => {
    const inClient = 'RedisSocket.write (/app/node_modules/.pnpm/@redis+client@6.3.1/node_modules/@redis/client/lib/client/socket.ts:463:20)';
    expect(isLostRedisWrite(socketError('ECONNRESET', inClient))).toBe(true);
    expect(isLostRedisWrite(socketError('EPIPE', inClient))).toBe(true);
    // The same error from anywhere else, another error from the client, or no error at all: still fatal.
    expect(isLostRedisWrite(socketError('ECONNRESET', 'Socket.write (/app/src/socket/game-server.ts:10:3)'))).toBe(false);
    expect(isLostRedisWrite(socketError('ERR_ASSERTION', inClient))).toBe(false);
    expect(isLostRedisWrite('ECONNRESET @redis/client')).toBe(false);
  });
});
