// The worker pool: legal moves from games and positions, analyses, clear
// errors for bad input, the per-call time limit, a main thread that keeps
// running its own callbacks while searches run, and workers that give way to it.

import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { legalMoves, newGame, play, startPosition, type Move, type State } from '@oanquan/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bestMove } from './best-move.js';
import { EngineError, EnginePool, ERR_ENGINE_TIMEOUT } from './engine-pool.js';
import { ERR_BAD_POSITION } from './worker.js';

const pool = new EnginePool({ threads: 2 });
// A call's time limit counts from the call, and a worker's first task waits
// for it to start and compile the sources, which takes seconds on a busy
// machine: the workers are warmed up before the limits are tested.
beforeAll(() =>
  Promise.all([1, 2].map(() => pool.bestMove({ moves: [] }, { depth: 1, limitMs: 60_000 }))),
);
afterAll(() => pool.close());

const isLegal = (state: State, move: Move) =>
  legalMoves(state).some((m) => m.square === move.square && m.dir === move.dir);

/** Each thread of this process by its kernel id, with its scheduling policy (the 41st field of its stat line). */
function threadPolicies(): Map<number, number> {
  const policies = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      policies.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[41 - 3]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return policies;
}

/** Each thread of this process by its kernel id, with its nice value (the 19th field of its stat line). */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // The fields after the command name, which may hold spaces, start with the 3rd.
      nices.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19 - 3]));
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return nices;
}

describe('EnginePool', () => {
  it('returns legal moves for a game given by its moves, at every level', async () => {
    let state = newGame({ rules: { quanNon: 5, emptyQuanIsGap: true }, first: 1 });
    const moves: Move[] = [];
    for (const level of [1, 2, 3, 4, 5, 6, 7, 8] as const) {
      const result = await pool.bestMove({ rules: state.rules, first: 1, moves }, { level, seed: level, timeMs: 50 });
      expect(isLegal(state, result.move)).toBe(true);
      const next = play(state, result.move);
      if (!next.ok) throw new Error(next.code);
      moves.push(result.move);
      state = next.state;
    }
  });

  it('gives the same answer as a search on this thread for a depth budget', async () => {
    const fromPool = await pool.bestMove({ position: startPosition(1) }, { depth: 5 });
    expect(fromPool).toEqual(bestMove(newGame({ first: 1 }), { depth: 5 }));
  });

  it('analyses a game', async () => {
    const moves = [legalMoves(newGame())[3]!];
    const analysis = await pool.analyse({ moves }, { depth: 3 });
    expect(analysis.plies).toHaveLength(1);
    expect(analysis.plies[0]!.move).toEqual(moves[0]);
  });

  it('rejects bad games with a code, and keeps working', async () => {
    await expect(pool.bestMove({ moves: [{ square: 7, dir: 1 }] })).rejects.toMatchObject({ code: 'ERR_NOT_YOUR_SQUARE' });
    await expect(pool.bestMove({ position: { ...startPosition(0), squares: [] } })).rejects.toMatchObject({
      code: ERR_BAD_POSITION,
    });
    await expect(pool.analyse({ moves: [{ square: 1, dir: 1 }, { square: 1, dir: 1 }] })).rejects.toBeInstanceOf(EngineError);
    const after = await pool.bestMove({ moves: [] }, { depth: 2 });
    expect(isLegal(newGame(), after.move)).toBe(true);
  });

  it('aborts a call past its time limit with ERR_ENGINE_TIMEOUT, then serves the next', async () => {
    // A depth no search reaches in a second, and no time budget of its own.
    await expect(pool.bestMove({ moves: [] }, { depth: 40, limitMs: 200 })).rejects.toMatchObject({
      code: ERR_ENGINE_TIMEOUT,
    });
    const next = await pool.bestMove({ moves: [] }, { depth: 3 });
    expect(isLegal(newGame(), next.move)).toBe(true);
  });

  it("runs its workers at the lowest priority, in the idle class when asked, and leaves the calling thread's as it was", async () => {
    const before = threadNices();
    const callerNice = getPriority();
    const lowest = new EnginePool({ threads: 1, idle: true });
    const normal = new EnginePool({ threads: 1, nice: 0 });
    try {
      await Promise.all([lowest, normal].map((p) => p.bestMove({ moves: [] }, { depth: 2, limitMs: 60_000 })));
      const added = [...threadNices()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
      // Each pool starts one worker (and node its helper threads, at the caller's priority).
      expect(added.filter((nice) => nice === 19)).toHaveLength(callerNice === 19 ? added.length : 1);
      // The worker asked for it is in the idle scheduling class (policy 5, SCHED_IDLE); the other is not.
      const idle = [...threadPolicies()].filter(([tid, policy]) => !before.has(tid) && policy === 5);
      expect(idle).toHaveLength(1);
      expect(getPriority()).toBe(callerNice);
      expect(before.get(process.pid)).toBe(threadNices().get(process.pid));
    } finally {
      await Promise.all([lowest.close(), normal.close()]);
    }
  });

  it('leaves the event loop free: timers run while searches are pending, and not during one on this thread', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const searches = Promise.all([
        pool.bestMove({ moves: [] }, { level: 8, timeMs: 400 }),
        pool.bestMove({ position: startPosition(1) }, { level: 8, timeMs: 400 }),
      ]);
      const results = await searches;
      expect(results.every((r) => r.nodes > 0)).toBe(true);
      expect(ticks).toBeGreaterThan(1);

      ticks = 0;
      bestMove(newGame(), { level: 8, timeMs: 200 });
      expect(ticks).toBe(0);
    } finally {
      clearInterval(timer);
    }
  });
});
