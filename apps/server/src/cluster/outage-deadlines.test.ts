import type { MatchSnapshot } from '@oanquan/protocol';
import { privatePostgres, startServerProcess } from '@oanquan/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { creditReceived, heldDeadline, tablesWithDeadlines } from '../testing/deadline-tables.js';
import { newGuest, TestClient } from '../testing/live.js';

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
    const tables = await tablesWithDeadlines(server.url);
    cleanups.push(tables.close);
    const { opener, first, clock } = tables;
    const [, two] = tables.moves;
    // Seat 1's clock running, its snapshot held in memory by a spectator's join.
    const watched = await clock.c.request('room:join', { code: clock.room.code });
    if (!watched.ok || !('snapshot' in watched)) throw new Error('join refused');

    await database.stop();
    const stoppedAt = Date.now();
    await sleep(outageMs);
    await database.start();
    const restartedAt = Date.now();
    // Long enough for the sweeps and the timers of the process to have judged every deadline.
    await sleep(3000);

    // Every client of a credited match is told the new deadlines at once, one version on.
    for (const table of [opener, first, clock]) {
      for (const client of [table.a, table.b]) {
        const credit = await creditReceived(client);
        expect(credit.version).toBe(table.version + 1);
        expect(heldDeadline(client.events)! - heldDeadline(client.events.filter((e) => e.version < credit.version))!).toBe(credit.creditMs);
        expect(credit.creditMs).toBeGreaterThanOrEqual(outageMs - 1000);
      }
    }

    // A new spectator sees seat 1's clock charged for the time the service was up, not for the outage.
    const spectator = await TestClient.connect(server.url, (await newGuest(server.url)).token);
    cleanups.push(() => spectator.close());
    const seen = await spectator.request('room:join', { code: clock.room.code });
    if (!seen.ok || !('snapshot' in seen)) throw new Error('join refused');
    const snapshot: MatchSnapshot = seen.snapshot;
    const shownAt = Date.now();
    expect(snapshot.version).toBe(clock.version + 1);
    // Charged at most: up before the stop, up since the restart, and the one pulse interval of the outage the service may have served in.
    const upTo = (from: number, at: number) => stoppedAt - from + (at - restartedAt) + 1000 + 250;
    const charged = 60_000 - snapshot.clocks!.remainingMs[1];
    expect(charged).toBeLessThanOrEqual(upTo(clock.from, shownAt));
    expect(charged).toBeGreaterThanOrEqual(stoppedAt - clock.from);

    // The opener was not forfeited: seat 1 still chooses, and the round is played.
    const chosen = await opener.b.request('opener:choose', { matchId: opener.room.matchId, choice: 'scissors' });
    expect(chosen).toMatchObject({ ok: true });
    await opener.a.until(() => opener.a.events.some((e) => e.event.type === 'started'), 'the opener to be decided');
    expect(opener.a.events.map((e) => e.event.type)).not.toContain('opener-forfeit');
    // The match was not aborted: its first move is taken.
    const firstMove = await first.a.request('move', { matchId: first.room.matchId, moveId: 'f1', version: first.version + 1, ...tables.moves[0] });
    expect(firstMove).toMatchObject({ ok: true });
    // Seat 1 moves, charged as the snapshot said; on the version before the credit (a move sent during the outage), since a credit changes no position.
    const answer = await clock.b.request('move', { matchId: clock.room.matchId, moveId: 'b1', version: clock.version, ...two });
    const answeredAt = Date.now();
    expect(answer).toMatchObject({ ok: true });
    const record = await fetch(`${server.url}/api/matches/${clock.room.matchId}`).then((r) => r.json() as Promise<{ moves: Array<{ ply: number; remainingMs: number | null }> }>);
    const remaining = record.moves.find((m) => m.ply === 2)?.remainingMs;
    expect(60_000 - remaining!).toBeLessThanOrEqual(upTo(clock.from, answeredAt));
    expect(server.output()).toMatch(/clocks and deadlines of matches in play moved on by the outage/);
    console.log(
      `database outage of ${restartedAt - stoppedAt} ms with the process up: opener deadline (${limitMs} ms, ${stoppedAt - opener.from} ms used before) and first move (${stoppedAt - first.from} ms used before) still open ${Date.now() - restartedAt} ms after the restart; ` +
        `seat 1 charged ${charged} ms in the snapshot and ${60_000 - remaining!} ms at its move (${stoppedAt - clock.from} ms up before the outage)`,
    );
  }, 120_000);
});
