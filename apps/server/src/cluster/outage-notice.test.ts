import { unpackEnvelope } from '@oanquan/protocol';
import { startServerProcess, type ServerProcess } from '@oanquan/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { engines, lastingServerEnv } from '../testing/databases.js';
import { heldDeadline, tablesWithDeadlines } from '../testing/deadline-tables.js';
import { TestClient } from '../testing/live.js';

const outageMs = 5000;

describe.each(engines)('clients of matches credited for a whole-service outage on %s', (engine) => {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('learn the new deadlines by version when they come back', async () => {
    const data = await lastingServerEnv(engine);
    cleanups.push(data.drop);
    // Long enough that no deadline lapses in the test, with or without the credit.
    const env = { ...data.env, LOG_LEVEL: 'warn', OPENER_TIMEOUT_MS: '60000', FIRST_MOVE_TIMEOUT_MS: '60000' };
    const stop = async (server: ServerProcess) => {
      server.child.kill('SIGKILL');
      await server.exited;
    };
    const first = await startServerProcess(env);
    cleanups.push(() => stop(first));
    const tables = await tablesWithDeadlines(first.url);
    tables.close();

    // Every process gone (here the only one) for longer than an outage takes to be noticed.
    await stop(first);
    await new Promise((resolve) => setTimeout(resolve, outageMs));
    const second = await startServerProcess(env);
    cleanups.push(() => stop(second));

    for (const table of [tables.opener, tables.first, tables.clock]) {
      const back = await TestClient.connect(second.url, table.tokens[0]);
      cleanups.push(() => back.close());
      const missed = await back.request('sync', { matchId: table.room.matchId, version: table.version });
      if (!missed.ok || !('events' in missed)) throw new Error(JSON.stringify(missed));
      const events = missed.events.map(unpackEnvelope);
      expect(events.map((e) => [e.version, e.event.type])).toEqual([[table.version + 1, 'outage-credited']]);
      const [credit] = events;
      if (credit?.event.type !== 'outage-credited') throw new Error('no credit');
      expect(credit.event.creditMs).toBeGreaterThanOrEqual(outageMs - 1000);
      // The deadline the client held moves on by exactly the credit.
      const before = heldDeadline(table.a.events);
      expect(before).not.toBeNull();
      expect(heldDeadline([...table.a.events, ...events])! - before!).toBe(credit.event.creditMs);
    }
  }, 120_000);
});
