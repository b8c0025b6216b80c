import { PRESETS, replay } from '@oanquan/rules';
import { startServerProcess, type ServerProcess } from '@oanquan/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { engines, lastingServerEnv } from '../testing/databases.js';
import { openedGame, scriptedGame } from '../testing/live.js';

describe.each(engines)('a server killed mid-game on %s', (engine) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('loses no acknowledged move; both clients reconnect, resume and finish', async () => {
    const data = await lastingServerEnv(engine);
    cleanups.push(data.drop);
    const env = { ...data.env, LOG_LEVEL: 'warn' };
    let server: ServerProcess = await startServerProcess(env);
    cleanups.push(async () => {
      server.child.kill('SIGKILL');
      await server.exited;
    });
    const port = Number(new URL(server.url).port);

    const { room, a, b, version: openedAt } = await openedGame([server.url, server.url], { reconnection: true });
    cleanups.push(async () => {
      a.close();
      b.close();
    });

    const moves = scriptedGame(PRESETS.classic, 0, 11);
    const half = Math.floor(moves.length / 2);
    let version = openedAt;
    const playMove = async (i: number) => {
      const move = moves[i]!;
      const ack = await (i % 2 === 0 ? a : b).request('move', { matchId: room.matchId, moveId: `m${i}`, version, ...move });
      if (!ack.ok) throw new Error(`move ${i}: ${ack.code}`);
      version = ack.version;
    };
    for (let i = 0; i < half; i++) await playMove(i);

    const reconnected = Promise.all([a, b].map((c) => new Promise((resolve) => c.socket.io.once('reconnect', resolve))));
    server.child.kill('SIGKILL');
    await server.exited;
    server = await startServerProcess(env, { port });
    await reconnected;

    // Every acknowledged move survived; each client catches up on what it missed.
    await Promise.all([a.resync(room.matchId), b.resync(room.matchId)]);
    expect(a.version).toBe(version);
    expect(b.version).toBe(version);

    for (let i = half; i < moves.length; i++) await playMove(i);
    await Promise.all([a.waitForVersion(version), b.waitForVersion(version)]);

    const replayed = replay({ rules: PRESETS.classic, first: 0 }, moves);
    if (!replayed.ok) throw new Error('replay failed');
    const ended = a.events.at(-1)?.event;
    const final = replayed.positions.at(-1)!;
    expect(ended).toEqual({ type: 'ended', result: { winner: final.result!.winner, reason: final.result!.reason, score: final.result!.score }, ratings: null });
    // Consecutive versions, nothing lost or doubled across the crash.
    expect(a.events.map((e) => e.version)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
    expect(b.events).toEqual(a.events.slice(b.events[0]!.version - 1));
  }, 90_000);
});
