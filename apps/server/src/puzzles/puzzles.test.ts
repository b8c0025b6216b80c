// Puzzles over HTTP on both databases: stored from the engine, offered
// without their line, tries checked against the line on the server, an
// account's first try rated (Glicko-2) for the solver and the puzzle, a
// guest's never, the daily puzzle.

import { findPuzzle, selfPlayPuzzles, type Puzzle } from '@oanquan/engine';
import type { ErrorBody, PuzzleAttemptResponse, PuzzleView } from '@oanquan/protocol';
import { startPosition, stateFromPosition, type Move } from '@oanquan/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, newAccount, newGuest, startApp } from '../testing/live.js';
import { storePuzzles } from './puzzle-store.js';

/** rules.md E4's chain: a puzzle of two solver moves. */
const chain = findPuzzle(
  stateFromPosition({
    ...startPosition(0),
    squares: [2, 0, 0, 1, 0, 0, 4, 0, 3, 0, 2, 1],
    captured: [
      { dan: 19, quan: 0 },
      { dan: 18, quan: 0 },
    ],
  }),
)!;
const others: Puzzle[] = [1, 2, 3].flatMap((seed) => selfPlayPuzzles({ seed }));

/** Either verdict, the continuation or a refusal, as the tests read them. */
type Change = { before: number; after: number; provisionalBefore?: boolean; provisionalAfter?: boolean } | null;
type Answer = {
  status?: PuzzleAttemptResponse['status'];
  reply?: Move;
  line?: Move[];
  solver?: Change;
  puzzle?: Change;
  attempts?: number;
  solved?: number;
  code?: ErrorBody['code'];
};

const wrongFirst = (puzzle: Puzzle): Move => {
  const right = puzzle.line[0]!;
  return { square: right.square, dir: right.dir === 1 ? -1 : 1 };
};

describe.each(engines)('puzzles on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine));
  });
  afterAll(() => app.close());

  const attempt = (id: string, token: string | undefined, moves: unknown) =>
    api<Answer>(url, `/api/puzzles/${id}/attempts`, { token, body: { moves } });

  it('answers that there is no puzzle yet, then stores each position once', async () => {
    expect(await api(url, '/api/puzzles/next')).toMatchObject({ status: 404, body: { code: 'PUZZLE_NOT_FOUND' } });
    // No puzzle of the day yet is no error: the home page asks on every visit.
    const none = await fetch(`${url}/api/puzzles/daily`);
    expect(none.status).toBe(204);
    // A browser must not keep "none yet" once a puzzle exists.
    expect(none.headers.get('cache-control')).toBe('no-store');
    expect(chain.line.length).toBe(3);
    expect(others.length).toBeGreaterThan(1);
    expect(await storePuzzles(db, [chain, ...others], { kind: 'self-play' })).toBe(1 + others.length);
    expect(await storePuzzles(db, [chain], { kind: 'self-play' })).toBe(0);
  });

  it('offers a puzzle without its line, and keeps the daily one for the day', async () => {
    const next = await api<PuzzleView>(url, '/api/puzzles/next');
    expect(next.status).toBe(200);
    expect(next.body).not.toHaveProperty('line');
    expect(next.body).toMatchObject({ solver: null, tried: false, rated: false, day: null });
    const daily = await api<PuzzleView>(url, '/api/puzzles/daily');
    expect(daily.body.day).toBe(new Date().toISOString().slice(0, 10));
    expect((await api<PuzzleView>(url, '/api/puzzles/daily')).body.id).toBe(daily.body.id);
    expect(await api(url, '/api/puzzles/00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, body: { code: 'PUZZLE_NOT_FOUND' } });
    expect(await api(url, '/api/puzzles/not-an-id')).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
  });

  it('plays the line move by move: the reply after a right move, solved and rated after the last', async () => {
    const { token } = await newAccount(url);
    const id = (await db.prisma.puzzle.findFirstOrThrow({ where: { position: { startsWith: '2.0.0.1.' } } })).id;
    const view = await api<PuzzleView>(url, `/api/puzzles/${id}`, { token });
    expect(view.body).toMatchObject({ solverMoves: 2, tried: false, rated: true, themes: expect.arrayContaining(['capture-chain', 'quan']) });

    const first = await attempt(id, token, [chain.line[0]]);
    expect(first.body).toEqual({ status: 'continue', reply: chain.line[1] });
    const done = await attempt(id, token, [chain.line[0], chain.line[2]]);
    // The verdict carries the counts with this try in them, so the page needs no second read; one try says little of a solver.
    expect(done.body).toMatchObject({ status: 'solved', line: chain.line, attempts: 1, solved: 1, solver: { provisionalBefore: true, provisionalAfter: true } });
    expect(done.body.solver!.after).toBeGreaterThan(done.body.solver!.before);
    expect(done.body.puzzle!.after).toBeLessThan(done.body.puzzle!.before);

    // Once tried, never rated again, and not offered again.
    const again = await attempt(id, token, [chain.line[0], chain.line[2]]);
    expect(again.body).toMatchObject({ status: 'solved', solver: null, puzzle: null, attempts: 1, solved: 1 });
    const after = await api<PuzzleView>(url, `/api/puzzles/${id}`, { token });
    expect(after.body).toMatchObject({ tried: true, rated: false, attempts: 1, solved: 1, solver: { attempts: 1, solved: 1, provisional: true } });
    expect(after.body.solver!.rating).toBeCloseTo(done.body.solver!.after, 6);
    for (let i = 0; i < 6; i++) expect((await api<PuzzleView>(url, '/api/puzzles/next', { token })).body.id).not.toBe(id);
  });

  it('fails a wrong move at once, rated against the solver, and shows the whole line', async () => {
    const { token } = await newAccount(url);
    const puzzle = others[0]!;
    const row = await db.prisma.puzzle.findFirstOrThrow({ where: { line: { equals: puzzle.line.map(({ square, dir }) => ({ square, dir })) } } });
    const failed = await attempt(row.id, token, [wrongFirst(puzzle)]);
    expect(failed.body).toMatchObject({ status: 'failed', line: puzzle.line, attempts: row.attempts + 1, solved: row.solved });
    expect(failed.body.solver!.after).toBeLessThan(failed.body.solver!.before);
    expect(failed.body.puzzle!.after).toBeGreaterThan(failed.body.puzzle!.before);
    // The right answer afterwards changes nothing.
    expect((await attempt(row.id, token, puzzle.line.filter((_, i) => i % 2 === 0))).body).toMatchObject({ status: 'solved', solver: null });
    expect(await db.prisma.puzzleAttempt.findMany({ where: { puzzleId: row.id } })).toMatchObject([{ solved: false }]);
  });

  it('rates no guest: a guest who fails on purpose moves no rating and records nothing, and the account that solves next is rated once', async () => {
    const thrower = await newGuest(url);
    const puzzle = others[1]!;
    const row = await db.prisma.puzzle.findFirstOrThrow({ where: { line: { equals: puzzle.line.map(({ square, dir }) => ({ square, dir })) } } });
    const guestView = await api<PuzzleView>(url, `/api/puzzles/${row.id}`, { token: thrower.token });
    expect(guestView.body).toMatchObject({ tried: false, rated: false });
    const thrown = await attempt(row.id, thrower.token, [wrongFirst(puzzle)]);
    expect(thrown.body).toMatchObject({ status: 'failed', line: puzzle.line, solver: null, puzzle: null, attempts: 0, solved: 0 });
    // The guest solving it afterwards is not rated either, and nothing of theirs is stored.
    expect((await attempt(row.id, thrower.token, puzzle.line.filter((_, i) => i % 2 === 0))).body).toMatchObject({ status: 'solved', solver: null, puzzle: null });
    expect(await db.prisma.puzzleAttempt.count({ where: { playerId: thrower.player.id } })).toBe(0);
    expect(await db.prisma.puzzleSolver.count({ where: { playerId: thrower.player.id } })).toBe(0);
    expect(await db.prisma.puzzle.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ rating: row.rating, deviation: row.deviation, attempts: 0, solved: 0 });

    // The account that plays the thrown line is rated from the puzzle's own rating, once.
    const solver = await newAccount(url);
    const solved = await attempt(row.id, solver.token, puzzle.line.filter((_, i) => i % 2 === 0));
    expect(solved.body).toMatchObject({ status: 'solved', solver: { before: 1500 }, puzzle: { before: row.rating }, attempts: 1, solved: 1 });
    expect(await db.prisma.puzzle.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ attempts: 1, solved: 1 });
  });

  it("records a new account's parallel first moves as one first try, every answer clean", async () => {
    const { token, player } = await newAccount(url);
    const puzzle = others.at(-1)!;
    const row = await db.prisma.puzzle.findFirstOrThrow({ where: { line: { equals: puzzle.line.map(({ square, dir }) => ({ square, dir })) } } });
    const right = puzzle.line[0]!;
    // Every first move at once: all but the right one fail, and each failure is a first try until one is recorded.
    const moves = Array.from({ length: 12 }, (_, square) => [1, -1].map((dir) => ({ square, dir }))).flat();
    const answers = await Promise.all(moves.map((move) => attempt(row.id, token, [move])));
    expect(answers.map((answer) => answer.status)).toEqual(moves.map(() => 200));
    const rated = answers.filter((answer) => answer.body.solver);
    expect(rated).toHaveLength(1);
    expect(rated[0]!.body.solver!.before).toBe(1500);
    const solved = rated[0]!.body.status === 'solved';
    // The right move continues the line (or, for a one-move puzzle, solves it); every other one fails.
    const rightAnswer = answers[moves.findIndex((move) => move.square === right.square && move.dir === right.dir)]!;
    expect(rightAnswer.body.status).toBe(puzzle.line.length > 1 ? 'continue' : 'solved');
    expect(answers.filter((answer) => answer.body.status === 'failed')).toHaveLength(moves.length - 1);
    expect(await db.prisma.puzzleAttempt.findMany({ where: { playerId: player.id } })).toMatchObject([{ puzzleId: row.id, solved }]);
    expect(await db.prisma.puzzleSolver.findUniqueOrThrow({ where: { playerId: player.id } })).toMatchObject({ attempts: 1, solved: solved ? 1 : 0 });
    expect(await db.prisma.puzzle.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ attempts: 1 });
  });

  it('refuses a try without a session, too many moves, malformed moves and an unknown puzzle', async () => {
    const { token, player } = await newGuest(url);
    const id = (await db.prisma.puzzle.findFirstOrThrow()).id;
    expect((await attempt(id, undefined, [chain.line[0]])).status).toBe(401);
    const many = Array.from({ length: 8 }, () => chain.line[0]);
    expect(await attempt(id, token, many)).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    for (const moves of [[], [{ square: 12, dir: 1 }], [{ square: 3, dir: 2 }], 'x', Array.from({ length: 9 }, () => chain.line[0])]) {
      expect(await attempt(id, token, moves)).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    }
    expect(await attempt('00000000-0000-4000-8000-000000000000', token, [chain.line[0]])).toMatchObject({ status: 404, body: { code: 'PUZZLE_NOT_FOUND' } });
    expect(await db.prisma.puzzleAttempt.count({ where: { playerId: player.id } })).toBe(0);
  });
});
