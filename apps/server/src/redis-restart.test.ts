import pg from 'pg';
import { PRESETS } from '@oanquan/rules';
import { privateRedis, type ServerProcess, startServerProcess } from '@oanquan/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresAvailable, scratchTarget } from './testing/databases.js';
import { openedGame, scriptedGame, TestClient } from './testing/live.js';

const outageMs = 10_000;

describe.runIf(postgresAvailable)('Redis stopped for 10 s under two server processes, then started again', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('keeps local delivery meanwhile, resumes broadcasts by itself, and the other process’s client catches up by version', async () => {
    const redis = await privateRedis();
    cleanups.push(redis.stop);
    const scratch = await scratchTarget('postgresql');
    cleanups.push(scratch.drop);
    if (scratch.target.kind !== 'postgresql') throw new Error('expected PostgreSQL');
    const databaseUrl = scratch.target.url;
    const env = { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, LOG_LEVEL: 'warn' };
    const servers: ServerProcess[] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    cleanups.push(async () => {
      for (const server of servers) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
    });
    const [one, two] = servers as [ServerProcess, ServerProcess];

    const { room, a, b, version: openedAt } = await openedGame([one.url, two.url]);
    cleanups.push(async () => {
      a.close();
      b.close();
    });

    const moves = scriptedGame(PRESETS.classic, 0, 3);
    let version = openedAt;
    const acked: string[] = [];
    const playMove = async (i: number) => {
      const ack = await (i % 2 === 0 ? a : b).request('move', { matchId: room.matchId, moveId: `m${i}`, version, ...moves[i]! });
      if (!ack.ok) throw new Error(`move ${i}: ${ack.code}`);
      version = ack.version;
      acked.push(`m${i}`);
    };
    // Up to a move of seat 0 (on process one), each seen on both processes.
    let i = 0;
    for (; i < 6 || i % 2 === 1; i++) {
      await playMove(i);
      await Promise.all([a.waitForVersion(version), b.waitForVersion(version)]);
    }

    await redis.stop();
    const stoppedAt = Date.now();
    // Seat 0 moves during the outage: the database takes it, its own process delivers it at once.
    await playMove(i++);
    await a.waitForVersion(version, 3_000);
    // The other process reads it from the database (its check of the versions its sockets watch), Redis or not.
    await b.waitForVersion(version, outageMs - (Date.now() - stoppedAt));
    console.log(`redis restart: the other process's client had the move ${Date.now() - stoppedAt} ms into the outage`);
    await new Promise((resolve) => setTimeout(resolve, outageMs - (Date.now() - stoppedAt)));
    await redis.start();

    // Broadcasts between the processes resume on their own: the rest of the game crosses them as before.
    for (; i < moves.length; i++) {
      await playMove(i);
      await Promise.all([a.waitForVersion(version), b.waitForVersion(version)]);
    }
    expect(a.events.at(-1)?.event.type).toBe('ended');
    const consecutive = (events: TestClient['events']) => events.map((e) => e.version).filter((v, k, all) => all.indexOf(v) === k);
    expect(consecutive(a.events)).toEqual(Array.from({ length: version }, (_, k) => k + 1));
    expect(consecutive(b.events)).toEqual(Array.from({ length: version - b.events[0]!.version + 1 }, (_, k) => k + b.events[0]!.version));

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const recorded = await client.query<{ move_id: string }>('SELECT move_id FROM move WHERE match_id = $1 ORDER BY ply', [room.matchId]);
      expect(recorded.rows.map((row) => row.move_id)).toEqual(acked);
      expect(acked).toHaveLength(moves.length);
    } finally {
      await client.end();
    }
    for (const server of servers) expect(server.child.exitCode).toBeNull();
  }, 120_000);
});
