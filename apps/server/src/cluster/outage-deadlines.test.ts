import { PRESETS } from '@oanquan/rules';
import type { MatchSnapshot } from '@oanquan/protocol';
import { privatePostgres, startServerProcess } from '@oanquan/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { newGuest, newRoom, scriptedGame, TestClient } from '../testing/live.js';

/** Longer than the opener's and the first move's time limits below: without the credit, both would lapse. */
const outageMs = 10_000;
const limitMs = 8_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('deadlines across a database outage the server process lives through', () => {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('credits the opener and first-move deadlines and the clocks, and shows no clock from before the credit', async () => {
    const database = await privatePostgres();
    cleanups.push(database.destroy);
    const server = await startServerProcess({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', OPENER_TIMEOUT_MS: String(limitMs), FIRST_MOVE_TIMEOUT_MS: String(limitMs) });
    cleanups.push(async () => {
      server.child.kill('SIGKILL');
      await server.exited;
    });
    const timed = { timeControl: { initialSeconds: 60, incrementSeconds: 0 } };
    const table = async () => {
      const [alice, bob, carol] = await Promise.all([newGuest(server.url), newGuest(server.url), newGuest(server.url)]);
      const room = await newRoom(server.url, alice.token, timed);
      const clients = await Promise.all([alice, bob, carol].map((guest) => TestClient.connect(server.url, guest.token)));
      for (const client of clients) cleanups.push(() => client.close());
      const [a, b, c] = clients as [TestClient, TestClient, TestClient];
      await a.request('room:join', { code: room.code });
      await b.request('room:join', { code: room.code });
      return { room, a, b, c };
    };
    const [one, two] = scriptedGame(PRESETS.classic, 0);

    // An opener half played: seat 0 has chosen, seat 1 has `limitMs` to.
    const opener = await table();
    const chose = await opener.a.request('opener:choose', { matchId: opener.room.matchId, choice: 'rock' });
    if (!chose.ok) throw new Error(chose.code);
    const openerFrom = Date.now();
    // A match waiting for its first move, due within `limitMs`.
    const first = await table();
    await first.a.request('opener:choose', { matchId: first.room.matchId, choice: 'rock' });
    const started = await first.b.request('opener:choose', { matchId: first.room.matchId, choice: 'scissors' });
    if (!started.ok) throw new Error(started.code);
    const firstFrom = Date.now();
    // A match in play, seat 1's clock running, its snapshot held in memory by a spectator's join.
    const clock = await table();
    await clock.a.request('opener:choose', { matchId: clock.room.matchId, choice: 'rock' });
    const opened = await clock.b.request('opener:choose', { matchId: clock.room.matchId, choice: 'scissors' });
    if (!opened.ok) throw new Error(opened.code);
    const moved = await clock.a.request('move', { matchId: clock.room.matchId, moveId: 'a1', version: opened.version, ...one });
    if (!moved.ok) throw new Error(moved.code);
    await clock.a.waitForVersion(moved.version);
    const movedEvent = clock.a.events.find((e) => e.version === moved.version)?.event;
    // Seat 1's clock starts once the first move's sowing allowance is over.
    const clockFrom = movedEvent?.type === 'moved' && movedEvent.clocks?.startsAt ? Date.parse(movedEvent.clocks.startsAt) : Date.now();
    const watched = await clock.c.request('room:join', { code: clock.room.code });
    if (!watched.ok || !('snapshot' in watched)) throw new Error('join refused');

    await database.stop();
    const stoppedAt = Date.now();
    await sleep(outageMs);
    await database.start();
    const restartedAt = Date.now();
    // Long enough for the sweeps and the timers of the process to have judged every deadline.
    await sleep(3000);

    // A new spectator sees seat 1's clock charged for the time the service was up, not for the outage.
    const spectator = await TestClient.connect(server.url, (await newGuest(server.url)).token);
    cleanups.push(() => spectator.close());
    const seen = await spectator.request('room:join', { code: clock.room.code });
    if (!seen.ok || !('snapshot' in seen)) throw new Error('join refused');
    const snapshot: MatchSnapshot = seen.snapshot;
    const shownAt = Date.now();
    expect(snapshot.version).toBe(moved.version);
    // Charged at most: up before the stop, up since the restart, and the one pulse interval of the outage the service may have served in.
    const upTo = (from: number, at: number) => stoppedAt - from + (at - restartedAt) + 1000 + 250;
    const charged = 60_000 - snapshot.clocks!.remainingMs[1];
    expect(charged).toBeLessThanOrEqual(upTo(clockFrom, shownAt));
    expect(charged).toBeGreaterThanOrEqual(stoppedAt - clockFrom);

    // The opener was not forfeited: seat 1 still chooses, and the round is played.
    const chosen = await opener.b.request('opener:choose', { matchId: opener.room.matchId, choice: 'scissors' });
    expect(chosen).toMatchObject({ ok: true });
    await opener.a.until(() => opener.a.events.some((e) => e.event.type === 'started'), 'the opener to be decided');
    expect(opener.a.events.map((e) => e.event.type)).not.toContain('opener-forfeit');
    // The match was not aborted: its first move is taken.
    const firstMove = await first.a.request('move', { matchId: first.room.matchId, moveId: 'f1', version: started.version, ...one });
    expect(firstMove).toMatchObject({ ok: true });
    // Seat 1 moves, charged as the snapshot said.
    const answer = await clock.b.request('move', { matchId: clock.room.matchId, moveId: 'b1', version: moved.version, ...two });
    const answeredAt = Date.now();
    expect(answer).toMatchObject({ ok: true });
    const record = await fetch(`${server.url}/api/matches/${clock.room.matchId}`).then((r) => r.json() as Promise<{ moves: Array<{ ply: number; remainingMs: number | null }> }>);
    const remaining = record.moves.find((m) => m.ply === 2)?.remainingMs;
    expect(60_000 - remaining!).toBeLessThanOrEqual(upTo(clockFrom, answeredAt));
    expect(server.output()).toMatch(/clocks and deadlines of matches in play moved on by the outage/);
    console.log(
      `database outage of ${restartedAt - stoppedAt} ms with the process up: opener deadline (${limitMs} ms, ${stoppedAt - openerFrom} ms used before) and first move (${stoppedAt - firstFrom} ms used before) still open ${Date.now() - restartedAt} ms after the restart; ` +
        `seat 1 charged ${charged} ms in the snapshot and ${60_000 - remaining!} ms at its move (${stoppedAt - clockFrom} ms up before the outage)`,
    );
  }, 120_000);
});
