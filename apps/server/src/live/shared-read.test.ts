import { describe, expect, it } from 'vitest';
import { SharedRead } from './shared-read.js';

describe('SharedRead', () => {
  it('callers share the next read that starts after they asked, never one already under way', async () => {
    const started: Array<(value: number) => void> = [];
    let reads = 0;
    const shared = new SharedRead<number>(
      () =>
        new Promise<number>((resolve) => {
          reads++;
          started.push(resolve);
        }),
    );
    const first = shared.read('room');
    const [second, third] = [shared.read('room'), shared.read('room')];
    expect(reads).toBe(1);
    started[0]!(1);
    expect(await first).toBe(1);
    await Promise.resolve();
    expect(reads).toBe(2);
    const fourth = shared.read('room');
    started[1]!(2);
    expect([await second, await third]).toEqual([2, 2]);
    // The fourth caller asked while the second read was under way, so it gets a third read.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reads).toBe(3);
    started[2]!(3);
    expect(await fourth).toBe(3);
  });

  it('keys are independent, and a failed read fails only its own callers', async () => {
    let n = 0;
    const shared = new SharedRead<string>(async (key) => {
      n++;
      if (key === 'bad') throw new Error('no such room');
      return `${key}${n}`;
    });
    const [good, bad] = [shared.read('good'), shared.read('bad')];
    await expect(bad).rejects.toThrow('no such room');
    expect(await good).toBe('good1');
    expect(await shared.read('bad').catch(() => 'failed again')).toBe('failed again');
    expect(await shared.read('good')).toBe('good4');
  });
});
