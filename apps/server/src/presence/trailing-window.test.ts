import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TrailingWindow } from './trailing-window.js';

describe('TrailingWindow', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a burst of requests once, at the end of the window', async () => {
    const runs: Array<[string, number]> = [];
    const window = new TrailingWindow(250, async (key) => {
      runs.push([key, Date.now()]);
    });
    const start = Date.now();
    for (let i = 0; i < 100; i++) window.request('a');
    window.request('b');
    await vi.advanceTimersByTimeAsync(249);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([
      ['a', start + 250],
      ['b', start + 250],
    ]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toHaveLength(2);
  });

  it('a request during a run opens the next window after it, so the last state is always seen', async () => {
    const runs: number[] = [];
    let finish!: () => void;
    const window = new TrailingWindow(250, async () => {
      runs.push(Date.now());
      await new Promise<void>((resolve) => (finish = resolve));
    });
    const start = Date.now();
    window.request('a');
    await vi.advanceTimersByTimeAsync(250);
    window.request('a');
    window.request('a');
    await vi.advanceTimersByTimeAsync(100);
    finish();
    await vi.advanceTimersByTimeAsync(249);
    expect(runs).toEqual([start + 250]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([start + 250, start + 600]);
    finish();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toHaveLength(2);
  });

  it('runs again after a failed run and runs nothing once stopped', async () => {
    let runs = 0;
    const window = new TrailingWindow(250, async () => {
      runs++;
      throw new Error('boom');
    });
    window.request('a');
    await vi.advanceTimersByTimeAsync(250);
    window.request('a');
    await vi.advanceTimersByTimeAsync(250);
    expect(runs).toBe(2);
    window.request('a');
    window.stop();
    window.request('a');
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
  });
});
