import { describe, expect, it } from 'vitest';
import { isRedisOutage } from './redis-outage.js';

const socketError = (code: string, syscall: string | undefined) =>
  Object.assign(new Error(`${syscall} ${code}`), { code, syscall, stack: `Error: ${syscall} ${code}\n    at TCP.onStreamRead (node:internal/stream_base_commons:218:20)` });
const thrownAt = (name: string, frame: string) => Object.assign(new Error(name), { name, stack: `${name}\n    at ${frame}` });

describe('isRedisOutage', () => {
  it('forgives what the Redis client raises and the raw error of a dropped socket, nothing else', () => {
    expect(isRedisOutage(thrownAt('TimeoutError', 'EventTarget.<anonymous> (/app/node_modules/.pnpm/@redis+client@6.3.1/node_modules/@redis/client/lib/client/commands-queue.ts:299:13)'))).toBe(true);
    expect(isRedisOutage(socketError('ECONNRESET', 'read'))).toBe(true);
    expect(isRedisOutage(socketError('EPIPE', 'write'))).toBe(true);
    // Our own code's failures, a refused connection, and anything not an Error: still fatal.
    expect(isRedisOutage(thrownAt('TypeError', 'MatchService.move (/app/apps/server/src/matches/match-service.ts:250:7)'))).toBe(false);
    expect(isRedisOutage(socketError('ECONNREFUSED', 'connect'))).toBe(false);
    expect(isRedisOutage(socketError('ECONNRESET', undefined))).toBe(false);
    expect(isRedisOutage({ code: 'ECONNRESET', syscall: 'read' })).toBe(false);
  });
});
