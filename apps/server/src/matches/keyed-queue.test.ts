import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('KeyedQueue', () => {
  it('runs the tasks of one key one at a time, in order, even when one fails', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    let running = 0;
    const task = (name: string, fail = false) => async () => {
      running++;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      running--;
      if (fail) throw new Error(name);
      return name;
    };
    const results = await Promise.allSettled([queue.run('m', task('a')), queue.run('m', task('b', true)), queue.run('m', task('c'))]);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('lets different keys run side by side', async () => {
    const queue = new KeyedQueue();
    let release!: () => void;
    const blocked = queue.run('a', () => new Promise<void>((resolve) => (release = resolve)));
    await expect(queue.run('b', async () => 'b')).resolves.toBe('b');
    release();
    await blocked;
  });
});
