import { describe, expect, it } from 'vitest';
import { FairLane } from './fair-lane.js';

/** A task that runs until let go, recording when it started. */
function held(log: string[], name: string) {
  let letGo!: () => void;
  const done = new Promise<void>((resolve) => (letGo = resolve));
  return { task: () => (log.push(name), done.then(() => name)), letGo };
}

describe('FairLane', () => {
  it('runs at most its width at once, and gives free places to the waiting keys in turn', async () => {
    const lane = new FairLane(1);
    const log: string[] = [];
    const first = held(log, 'crowd-0');
    const running = lane.run('crowd', first.task);
    const crowd = Array.from({ length: 5 }, (_, i) => lane.run('crowd', async () => void log.push(`crowd-${i + 1}`)));
    const victim = lane.run('victim', async () => void log.push('victim'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['crowd-0']);
    first.letGo();
    await Promise.all([running, victim, ...crowd]);
    // The victim came after one of the crowd's tasks, not after all five.
    expect(log).toEqual(['crowd-0', 'crowd-1', 'victim', 'crowd-2', 'crowd-3', 'crowd-4', 'crowd-5']);
  });

  it('drops a task whose deadline passes while it waits, without running it, and the lane goes on', async () => {
    const lane = new FairLane(1);
    const log: string[] = [];
    const first = held(log, 'first');
    const running = lane.run('a', first.task);
    const late = lane.run('b', async () => void log.push('late'), Date.now() + 50);
    expect(await late).toBeUndefined();
    first.letGo();
    expect(await running).toBe('first');
    expect(await lane.run('b', async () => 'next')).toBe('next');
    expect(log).toEqual(['first']);
  });

  it('frees its place when a task fails', async () => {
    const lane = new FairLane(1);
    await expect(lane.run('a', async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await lane.run('a', async () => 'after')).toBe('after');
  });

  it('never gives one key more than its share of the places, so another key finds one free', async () => {
    const lane = new FairLane(3, 2);
    const log: string[] = [];
    const crowd = Array.from({ length: 4 }, (_, i) => held(log, `crowd-${i}`));
    const running = crowd.map(({ task }) => lane.run('crowd', task));
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['crowd-0', 'crowd-1']);
    // The third place stayed free for anyone else.
    expect(await lane.run('victim', async () => 'at once')).toBe('at once');
    crowd[0]!.letGo();
    await running[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['crowd-0', 'crowd-1', 'crowd-2']);
    for (const { letGo } of crowd) letGo();
    expect(await Promise.all(running)).toEqual(['crowd-0', 'crowd-1', 'crowd-2', 'crowd-3']);
  });
});
