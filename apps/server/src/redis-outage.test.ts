import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { connectedPresenceStore } from './presence/presence-store.js';
import { isRedisOutage } from './redis-outage.js';
import { startRedis } from './testing/cluster.js';

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

describe('a command of ours that Redis fails', () => {
  it('is never forgiven as an outage if left unhandled, though its error comes from the client', async () => {
    const redis = await startRedis();
    const store = await connectedPresenceStore(redis.url, 1000, pino({ level: 'silent' }));
    try {
      expect(await store.exchange('r1', ['alice'])).toEqual([['alice']]);
      // Redis refuses every write from now on (out of memory): a failure of ours, with no outage at all.
      await redis.command('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
      await redis.command('CONFIG', 'SET', 'maxmemory', '1');
      const refused = await store.heartbeat().then(() => undefined, (error: unknown) => error);
      expect(refused).toBeInstanceOf(Error);
      expect(isRedisOutage(refused)).toBe(false);

      // And when Redis is gone, whatever the client says at that moment.
      await redis.stop();
      const failures = await Promise.all([store.exchange('r1', ['alice']), store.heartbeat(), store.orphanedRooms()].map((command) => command.then(() => undefined, (error: unknown) => error)));
      for (const failure of failures) {
        expect(failure).toBeInstanceOf(Error);
        expect(isRedisOutage(failure)).toBe(false);
      }
    } finally {
      await store.close();
      await redis.stop();
    }
  });
});
