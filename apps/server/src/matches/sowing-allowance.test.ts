import { legalMoves, newGame, play, sowingAllowanceMs, type Move } from '@oanquan/rules';
import type { Clocks, MatchEvent, MatchEventEnvelope, MatchRecord } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, openedGame, startApp, type TestClient } from '../testing/live.js';
import { readMatchRow } from '../match-records/match-row.js';

/** The opening move of these tests (seat 0): a pickup, ten drops, a relay and a capture. */
const OPENING: Move = { square: 1, dir: 1 };
const openingAllowance = (() => {
  const result = play(newGame({ first: 0 }), OPENING);
  if (!result.ok) throw new Error(result.code);
  return sowingAllowanceMs(result.events);
})();

/** The first legal replies after the opening: seat 1's, then seat 0's. */
function plies(opening: Move): [Move, Move] {
  let state = newGame({ first: 0 });
  const moves: Move[] = [];
  for (const move of [opening, undefined, undefined]) {
    const chosen = move ?? legalMoves(state)[0]!;
    const result = play(state, chosen);
    if (!result.ok) throw new Error(result.code);
    if (move === undefined) moves.push(chosen);
    state = result.state;
  }
  return [moves[0]!, moves[1]!];
}

/** Connections the hot path has on PostgreSQL (database.ts); PGlite has one. */
const HOT_CONNECTIONS = 12;

describe.each(engines)('the sowing allowance on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
  });

  async function opened(initialSeconds: number, incrementSeconds = 0) {
    const game = await openedGame([url, url], { room: { timeControl: { initialSeconds, incrementSeconds } } });
    clients.push(game.a, game.b);
    return { ...game, matchId: game.room.matchId };
  }

  /** The clocks of the `moved` event of `ply`, once `c` has it. */
  async function movedClocks(c: TestClient, ply: number): Promise<{ envelope: MatchEventEnvelope; clocks: Clocks }> {
    const find = () => c.events.filter((e) => e.event.type === 'moved')[ply - 1];
    await c.until(() => find() !== undefined, `ply ${ply}`);
    const envelope = find()!;
    const event = envelope.event as Extract<MatchEvent, { type: 'moved' }>;
    return { envelope, clocks: event.clocks! };
  }

  it('a timeout deadline includes the allowance: the waiting clock starts after it, and runs out only then', async () => {
    const { a, b, matchId, version } = await opened(2);
    const m1 = await a.request('move', { matchId, moveId: 'a1', version, ...OPENING });
    if (!m1.ok) throw new Error(m1.code);
    const { clocks } = await movedClocks(b, 1);
    expect(clocks).toMatchObject({ running: 1, remainingMs: [2000, 2000], startsAt: expect.any(String) });
    const startsAt = Date.parse(clocks.startsAt!);
    expect(startsAt - Date.parse(clocks.asOf)).toBeGreaterThanOrEqual(openingAllowance);

    // What the server keeps: the clock starts then, and the deadline is that start plus the whole clock.
    const row = (await readMatchRow(db.sql, matchId))!;
    expect(row.turnStartedAt?.getTime()).toBe(startsAt);
    expect(row.clockDeadline?.getTime()).toBe(startsAt + 2000);

    // Seat 1 never moves.
    await b.until(() => b.events.some((e) => e.event.type === 'ended'), 'the timeout', 15_000);
    const ended = b.events.find((e) => e.event.type === 'ended')!;
    expect(ended.event).toMatchObject({ result: { winner: 0, reason: 'timeout' } });
    expect(Date.parse(ended.at)).toBeGreaterThanOrEqual(startsAt + 2000);
    expect(Date.parse(ended.at) - Date.parse(clocks.asOf)).toBeGreaterThanOrEqual(openingAllowance + 2000);

    const record = (await api<MatchRecord>(url, `/api/matches/${matchId}`)).body;
    expect(record.moves[0]!.clockStartsAt).toBe(clocks.startsAt);
  });

  it('charges nothing for an answer within the allowance, and the record gives back every clock exactly', async () => {
    const { a, b, matchId, version } = await opened(60, 1);
    const m1 = await a.request('move', { matchId, moveId: 'a1', version, ...OPENING });
    if (!m1.ok) throw new Error(m1.code);
    const first = await movedClocks(b, 1);
    // Bob answers at once, well within the 3 s of the opening's sowing.
    const [reply, next] = plies(OPENING);
    const m2 = await b.request('move', { matchId, moveId: 'b1', version: m1.version, ...reply });
    if (!m2.ok) throw new Error(m2.code);
    expect(Date.now()).toBeLessThan(Date.parse(first.clocks.startsAt!));
    const second = await movedClocks(a, 2);
    expect(second.clocks.remainingMs[1]).toBe(61_000);

    // Alice thinks past the end of the allowance, so that her clock is charged.
    const aliceStarts = Date.parse(second.clocks.startsAt!);
    await a.until(() => Date.now() > aliceStarts + 300, 'the allowance to pass', 10_000);
    const m3 = await a.request('move', { matchId, moveId: 'a2', version: m2.version, ...next });
    if (!m3.ok) throw new Error(m3.code);
    const third = await movedClocks(b, 3);
    expect(third.clocks.remainingMs[0]).toBeLessThanOrEqual(61_000 - 300 + 1000);

    // The record alone: each move's time less its thinking time since the clock started, plus the increment.
    const record = (await api<MatchRecord>(url, `/api/matches/${matchId}`)).body;
    const remaining: [number, number] = [60_000, 60_000];
    for (const [i, move] of record.moves.entries()) {
      const started = i === 0 ? null : record.moves[i - 1]!.clockStartsAt;
      const thinking = started === null ? 0 : Math.max(0, Date.parse(move.at) - Date.parse(started));
      remaining[move.seat] = remaining[move.seat] - thinking + 1000;
      expect(move.remainingMs).toBe(remaining[move.seat]);
    }
    expect(record.moves.map((m) => m.clockStartsAt)).toEqual([first.clocks.startsAt, second.clocks.startsAt, third.clocks.startsAt]);
  });

  it('starts the next clock when the move is committed, not when it was decided: a slow commit is not charged to the next mover', async () => {
    const { a, b, matchId, version } = await opened(60);
    // As the move's statement is about to go, every connection of the hot path is held for 800 ms, so that it waits for one.
    const query = db.sql.query;
    let hold: { start: number; end: Promise<number> } | undefined;
    db.sql.query = (statement, values) => {
      if (statement.name === 'commit-move' && !hold) {
        const held = Array.from({ length: engine === 'pglite' ? 1 : HOT_CONNECTIONS }, () => query({ name: 'hold-connection', text: 'SELECT pg_sleep(0.8)' }, []));
        // The statement can go as soon as the first of them ends.
        hold = { start: Date.now(), end: Promise.race(held).then(() => Date.now()) };
      }
      return query(statement, values);
    };
    let m1;
    try {
      m1 = await a.request('move', { matchId, moveId: 'a1', version, ...OPENING });
    } finally {
      db.sql.query = query;
    }
    if (!m1.ok || !hold) throw new Error('the move was not committed through the hot path');
    const holdEnd = await hold.end;
    const { envelope, clocks } = await movedClocks(b, 1);
    const startsAt = Date.parse(clocks.startsAt!);
    console.info(`the statement waited ${holdEnd - hold.start} ms for a connection; the clock starts ${startsAt - hold.start} ms after the statement was asked for (allowance ${openingAllowance} ms)`);
    // The clock starts the allowance after the commit, which came after the hold; the event's instants are the commit's.
    expect(startsAt).toBeGreaterThanOrEqual(holdEnd - 100 + openingAllowance);
    expect(Date.parse(envelope.at)).toBeGreaterThanOrEqual(holdEnd - 100);
    expect(clocks.asOf).toBe(envelope.at);
    expect(startsAt - Date.parse(clocks.asOf)).toBe(openingAllowance);
    // What was published is what was stored.
    const stored = await db.prisma.matchEvent.findUniqueOrThrow({ where: { matchId_version: { matchId, version: envelope.version } } });
    expect(stored.payload).toEqual(envelope);
    const row = (await readMatchRow(db.sql, matchId))!;
    expect(row.turnStartedAt?.getTime()).toBe(startsAt);
    expect(row.clockDeadline?.getTime()).toBe(startsAt + 60_000);
    const record = (await api<MatchRecord>(url, `/api/matches/${matchId}`)).body;
    expect(record.moves[0]!.clockStartsAt).toBe(clocks.startsAt);
  });
});
