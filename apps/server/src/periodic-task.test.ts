import { describe, expect, it } from 'vitest';
import { PeriodicTask } from './periodic-task.js';

describe('PeriodicTask', () => {
  it('never runs twice at once, and stop waits for the run in progress', async () => {
    let running = 0;
    let runs = 0;
    let release!: () => void;
    const task = new PeriodicTask(async () => {
      running++;
      runs++;
      expect(running).toBe(1);
      await new Promise<void>((resolve) => (release = resolve));
      running--;
    }, 10);
    const first = task.run();
    expect(task.run()).toBe(first);
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(runs).toBe(1);
    expect(running).toBe(0);
  });
});
