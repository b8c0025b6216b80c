import { describe, expect, it } from 'vitest';
import { waitFor } from '../testing/wait-for.js';
import { PeopleFirst } from './people-first.js';
import { LaneFull, YieldingLane } from './yielding-lane.js';

/** A task that runs until let go, recording when it started. */
function held(log: string[], name: string) {
  let letGo!: () => void;
  const done = new Promise<void>((resolve) => (letGo = resolve));
  return { task: () => (log.push(name), done.then(() => name)), letGo };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const options = { width: 1, bound: 100, boundPerKey: 100, maxWaitMs: 60_000 };

describe('YieldingLane', () => {
  it('runs at most its width at once, and gives free places to the waiting keys in turn', async () => {
    const lane = new YieldingLane(options, new PeopleFirst());
    const log: string[] = [];
    const first = held(log, 'crowd-0');
    const running = lane.run('crowd', first.task);
    const crowd = Array.from({ length: 5 }, (_, i) => lane.run('crowd', async () => void log.push(`crowd-${i + 1}`)));
    const victim = lane.run('victim', async () => void log.push('victim'));
    await turn();
    await turn();
    expect(log).toEqual(['crowd-0']);
    expect(lane.waiting).toBe(6);
    first.letGo();
    await Promise.all([running, victim, ...crowd]);
    // The victim came after one of the crowd's tasks, not after all six.
    expect(log).toEqual(['crowd-0', 'victim', 'crowd-1', 'crowd-2', 'crowd-3', 'crowd-4', 'crowd-5']);
    expect(lane.waiting).toBe(0);
  });

  it('starts one task per turn of the event loop, so what arrived in between is read first', async () => {
    const lane = new YieldingLane({ ...options, width: 10 }, new PeopleFirst());
    const log: string[] = [];
    const tasks = Array.from({ length: 3 }, (_, i) => lane.run(`k${i}`, async () => void log.push(`task-${i}`)));
    // Arrives after the three were asked for, but before the second starts.
    setImmediate(() => log.push('socket'));
    await Promise.all(tasks);
    expect(log.indexOf('socket')).toBeGreaterThan(0);
    expect(log.indexOf('socket')).toBeLessThan(log.length - 1);
  });

  it('waits while a person’s move is in flight, and starts when the last one is done', async () => {
    const people = new PeopleFirst();
    const lane = new YieldingLane(options, people);
    const log: string[] = [];
    const move = held(log, 'person');
    const moving = people.around(move.task);
    const computer = lane.run('crowd', async () => void log.push('computer'));
    for (let i = 0; i < 5; i++) await turn();
    expect(log).toEqual(['person']);
    move.letGo();
    await Promise.all([moving, computer]);
    expect(log).toEqual(['person', 'computer']);
  });

  it('goes anyway once a task has waited its longest, however busy people keep it', async () => {
    const people = new PeopleFirst();
    const lane = new YieldingLane({ ...options, maxWaitMs: 30 }, people);
    const log: string[] = [];
    const move = held(log, 'person');
    const moving = people.around(move.task);
    const asked = Date.now();
    await lane.run('crowd', async () => void log.push('computer'));
    expect(Date.now() - asked).toBeGreaterThanOrEqual(25);
    expect(log).toEqual(['person', 'computer']);
    move.letGo();
    await moving;
  });

  it('refuses past its bound per key and in all, and takes again once there is room', async () => {
    const lane = new YieldingLane({ ...options, bound: 3, boundPerKey: 2 }, new PeopleFirst());
    const log: string[] = [];
    const first = held(log, 'first');
    const running = lane.run('a', first.task);
    await waitFor('the first task to start', () => log.length === 1, { everyMs: 1 });
    const waiting = [lane.run('a', async () => 'a1'), lane.run('a', async () => 'a2')];
    // One key holds its two; another key still has room in all.
    await expect(lane.run('a', async () => 'a3')).rejects.toBeInstanceOf(LaneFull);
    waiting.push(lane.run('b', async () => 'b1'));
    await expect(lane.run('c', async () => 'c1')).rejects.toThrow(/busy/);
    expect(lane.waiting).toBe(3);
    first.letGo();
    expect(await Promise.all([running, ...waiting])).toEqual(['first', 'a1', 'a2', 'b1']);
    expect(await lane.run('c', async () => 'c2')).toBe('c2');
  });

  it('drops a task whose deadline passes while it waits, without running it, and the lane goes on', async () => {
    const lane = new YieldingLane(options, new PeopleFirst());
    const log: string[] = [];
    const first = held(log, 'first');
    const running = lane.run('a', first.task);
    const late = lane.run('b', async () => void log.push('late'), Date.now() + 50);
    expect(await late).toBeUndefined();
    expect(lane.waiting).toBe(0);
    first.letGo();
    expect(await running).toBe('first');
    expect(await lane.run('b', async () => 'next')).toBe('next');
    expect(log).toEqual(['first']);
  });

  it('frees its place when a task fails', async () => {
    const lane = new YieldingLane(options, new PeopleFirst());
    await expect(lane.run('a', async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await lane.run('a', async () => 'after')).toBe('after');
  });
});
