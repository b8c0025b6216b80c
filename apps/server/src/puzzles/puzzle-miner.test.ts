// The puzzle miner: an analysed match's mistakes and blunders become
// puzzles, stored once, with the match they came from; each match is mined
// once, by whichever process claims it first.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { LazyEngine } from '../bots/lazy-engine.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, newGuest, newRoom, startApp, TestClient } from '../testing/live.js';
import { waitFor } from '../testing/wait-for.js';
import { PuzzleMiner } from './puzzle-miner.js';

// After 2< 3< (ring squares 2 and 9), player 0's 4> lets the opponent
// capture a quan piece: the analysis calls it a blunder, and both the move
// missed and the punishment are puzzles.
const GAME = [
  { square: 2, dir: -1 },
  { square: 9, dir: -1 },
  { square: 4, dir: 1 },
] as const;

describe.each(engines)('puzzle mining on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine, {}, { ANALYSIS_DEPTH: '6', PUZZLE_MINING: 'on', PUZZLE_MINING_POLL_MS: '200' }));
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await app.close();
  });

  /** A friend room's match with GAME's moves, seat 0 first, resigned by seat 1 and analysed. */
  async function analysedMatch(): Promise<string> {
    const [alice, bob] = await Promise.all([newGuest(url), newGuest(url)]);
    const room = await newRoom(url, alice.token);
    const a = await TestClient.connect(url, alice.token);
    const b = await TestClient.connect(url, bob.token);
    clients.push(a, b);
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const opened = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
    if (!opened.ok) throw new Error(opened.code);
    let version = opened.version;
    for (const [i, move] of GAME.entries()) {
      const ack = await (i % 2 === 0 ? a : b).request('move', { matchId: room.matchId, moveId: `m${i}`, version, ...move });
      if (!ack.ok) throw new Error(ack.code);
      version = ack.version;
    }
    await b.request('resign', { matchId: room.matchId });
    expect((await api(url, `/api/matches/${room.matchId}/analysis`, { method: 'POST', token: alice.token })).status).toBe(202);
    return room.matchId;
  }

  it('mines an analysed match once, into puzzles that name the match', async () => {
    const matchId = await analysedMatch();
    await waitFor('the match to be mined', async () => (await db.prisma.puzzleMining.count({ where: { matchId, found: { gt: 0 } } })) === 1, { timeoutMs: 120_000 });
    const puzzles = await db.prisma.puzzle.findMany({ where: { matchId }, orderBy: { createdAt: 'asc' } });
    expect(puzzles.length).toBeGreaterThan(0);
    expect(puzzles.every((puzzle) => puzzle.source === 'game' && puzzle.themes.includes('quan'))).toBe(true);
    const mined = await db.prisma.puzzleMining.findUniqueOrThrow({ where: { matchId } });
    expect(mined.found).toBe(puzzles.length);

    // Another process finds nothing left to claim, and a puzzle found again is not stored twice.
    const pool = new LazyEngine({ threads: 1 });
    try {
      const other = new PuzzleMiner(db, pool.get, app.http.log);
      expect(await other.mineOne()).toBeNull();
      await db.prisma.puzzleMining.delete({ where: { matchId } });
      expect(await other.mineOne()).toBe(0);
      expect(await db.prisma.puzzle.count({ where: { matchId } })).toBe(puzzles.length);
    } finally {
      await pool.close();
    }
  });
});
