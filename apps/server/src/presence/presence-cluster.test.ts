import type { Presence } from '@oanquan/protocol';
import { privateRedis, type ServerProcess, startServerProcess } from '@oanquan/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresAvailable, scratchTarget } from '../testing/databases.js';
import { newGuest, newRoom, TestClient } from '../testing/live.js';

describe.runIf(postgresAvailable)('presence shared by two server processes through Redis', () => {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('counts players and spectators across processes, follows a disconnect, and notices a process that died', async () => {
    const redis = await privateRedis();
    cleanups.push(redis.stop);
    const scratch = await scratchTarget('postgresql');
    cleanups.push(scratch.drop);
    if (scratch.target.kind !== 'postgresql') throw new Error('expected PostgreSQL');
    const env = { DATABASE_URL: scratch.target.url, REDIS_URL: redis.url, LOG_LEVEL: 'warn', PRESENCE_HEARTBEAT_MS: '300' };
    const servers: ServerProcess[] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    cleanups.push(async () => {
      for (const server of servers) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
    });
    const [one, two] = servers as [ServerProcess, ServerProcess];

    const [alice, bob, carol, dave] = await Promise.all([newGuest(one.url), newGuest(two.url), newGuest(one.url), newGuest(two.url)]);
    const room = await newRoom(one.url, alice.token);
    const connect = async (url: string, token: string) => {
      const client = await TestClient.connect(url, token);
      cleanups.push(() => client.close());
      await client.request('room:join', { code: room.code });
      return client;
    };
    const a = await connect(one.url, alice.token);
    const b = await connect(two.url, bob.token);
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const opened = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
    if (!opened.ok) throw new Error(opened.code);
    // Carol watches from both processes at once (two tabs), Dave from the second.
    await connect(one.url, carol.token);
    await connect(two.url, carol.token);
    await connect(two.url, dave.token);

    const latest = (c: TestClient): Presence | undefined => c.presence.at(-1);
    const seen = (c: TestClient, test: (p: Presence) => boolean, what: string, timeoutMs = 5_000) => c.until(() => latest(c) !== undefined && test(latest(c)!), what, timeoutMs);
    const both = (p: Presence) => p.seats[0].connected && p.seats[1].connected;
    await seen(a, (p) => both(p) && p.spectators === 2, 'both seats and two spectators, seen on process one');
    await seen(b, (p) => both(p) && p.spectators === 2, 'both seats and two spectators, seen on process two');

    // Bob closes his tab: Alice, on the other process, sees him gone and when she may claim.
    b.close();
    await seen(a, (p) => !p.seats[1].connected && p.seats[1].claimableAt !== null, 'seat 1 absent');
    const rejoined = await connect(one.url, bob.token);
    await seen(a, both, 'seat 1 back');
    rejoined.close();
    await seen(a, (p) => !p.seats[1].connected, 'seat 1 absent again');

    // Bob comes back on process two, which is then killed: nobody is left there to say he left.
    await connect(two.url, bob.token);
    await seen(a, (p) => both(p) && p.spectators === 2, 'seat 1 back on process two');
    two.child.kill('SIGKILL');
    await two.exited;
    const killedAt = Date.now();
    await seen(a, (p) => !p.seats[1].connected && p.seats[1].claimableAt !== null && p.spectators === 1, 'the dead process’s players gone', 10_000);
    console.log(`presence: a process killed with SIGKILL had its players counted absent after ${Date.now() - killedAt} ms (heartbeat 300 ms)`);
    expect(latest(a)?.seats[0].connected).toBe(true);
  }, 90_000);
});
