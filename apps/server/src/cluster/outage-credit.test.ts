import { PRESETS } from '@oanquan/rules';
import { startServerProcess, type ServerProcess } from '@oanquan/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { engines, lastingServerEnv } from '../testing/databases.js';
import { newGuest, newRoom, scriptedGame, TestClient } from '../testing/live.js';

const outageMs = 8000;

describe.each(engines)('a whole-service outage on %s', (engine) => {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('is not charged to the player whose clock was running', async () => {
    const data = await lastingServerEnv(engine);
    cleanups.push(data.drop);
    const env = { ...data.env, LOG_LEVEL: 'warn' };
    const stop = async (server: ServerProcess) => {
      server.child.kill('SIGKILL');
      await server.exited;
    };
    const first = await startServerProcess(env);
    cleanups.push(() => stop(first));
    const [alice, bob] = await Promise.all([newGuest(first.url), newGuest(first.url)]);
    const room = await newRoom(first.url, alice.token, { timeControl: { initialSeconds: 60, incrementSeconds: 0 } });
    const a = await TestClient.connect(first.url, alice.token);
    const b = await TestClient.connect(first.url, bob.token);
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const opened = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
    if (!opened.ok) throw new Error(opened.code);
    const [one, two] = scriptedGame(PRESETS.classic, 0);
    // The first move starts seat 1's clock.
    const moved = await a.request('move', { matchId: room.matchId, moveId: 'a1', version: opened.version, ...one });
    if (!moved.ok) throw new Error(moved.code);
    const clockStarted = Date.now();
    a.close();
    b.close();

    // Every process gone (here the only one) for longer than an outage takes to be noticed.
    await stop(first);
    const down = Date.now();
    await new Promise((resolve) => setTimeout(resolve, outageMs));
    const starting = Date.now();
    const second = await startServerProcess(env);
    cleanups.push(() => stop(second));
    const back = await TestClient.connect(second.url, bob.token);
    cleanups.push(() => back.close());
    const joined = await back.request('room:join', { code: room.code });
    if (!joined.ok || !('snapshot' in joined)) throw new Error('join refused');
    // The credit came with a version of its own; a move on the version before it stands (a credit changes no position).
    expect(joined.snapshot.version).toBe(moved.version + 1);
    const ack = await back.request('move', { matchId: room.matchId, moveId: 'b1', version: moved.version, ...two });
    if (!ack.ok) throw new Error(ack.code);
    const answered = Date.now();

    const record = await fetch(`${second.url}/api/matches/${room.matchId}`).then((r) => r.json() as Promise<{ moves: Array<{ ply: number; remainingMs: number | null }> }>);
    const remaining = record.moves.find((m) => m.ply === 2)?.remainingMs;
    // Charged: the time the service was up, and at most the one pulse interval of the outage a process may still have served in
    // (without the credit it would be the outage more).
    const upMs = down - clockStarted + (answered - starting);
    expect(60_000 - remaining!).toBeLessThanOrEqual(upMs + 1000 + 250);
    expect(second.output()).toMatch(/clocks and deadlines of matches in play moved on by the outage/);
  }, 120_000);
});
