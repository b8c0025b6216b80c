import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serverEntry } from '@oanquan/testkit';
import { describe, expect, it, vi } from 'vitest';
import { paths } from './config.js';
import { heapSizing, nextHeapState, sizeHeap, v8Effects, type HeapState } from './heap-sizing.js';

const serverDir = path.join(paths.repoRoot, 'apps/server');
const nodeArgs = JSON.parse(readFileSync(path.join(serverDir, 'node-args.json'), 'utf8')) as string[];

/** V8 sizes the young generation as node starts, so every way of starting the server must hand node-args.json to node itself. */
describe("the server's node options", () => {
  it('cap the young generation', () => {
    expect(nodeArgs).toContain('--max-semi-space-size=16');
  });

  it('are given by the package start script, ahead of the build', () => {
    const manifest = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as { scripts: { start: string } };
    expect(manifest.scripts.start).toContain(`node ${nodeArgs.join(' ')} dist/main.js`);
  });

  it('are given by the Docker image, to node itself on the build', () => {
    const dockerfile = readFileSync(path.join(paths.repoRoot, 'Dockerfile'), 'utf8');
    const command = /^CMD\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(command ?? 'null')).toEqual(['node', ...nodeArgs, 'apps/server/dist/main.js']);
  });

  it("are given by the tests' and benchmarks' server processes, build or sources", () => {
    const entry = serverEntry(serverDir);
    expect(entry.args.slice(0, nodeArgs.length)).toEqual(nodeArgs);
  });

  it('are read by `npm start` and `pnpm cluster`', () => {
    for (const starter of [path.join(paths.repoRoot, 'scripts/start.mjs'), path.join(serverDir, 'src/cluster/run-cluster.ts')]) {
      expect(readFileSync(starter, 'utf8')).toMatch(/readFileSync\(path\.join\(serverDir, 'node-args\.json'\)/);
    }
  });
});

describe("the old generation's growth factor", () => {
  const run = (readings: number[], from: HeapState = { mode: 'idle', quiet: 0 }, events = 0) =>
    readings.reduce<HeapState[]>((states, utilization) => [...states, nextHeapState(states.at(-1) ?? from, { utilization, events })], []);

  it('turns busy after one busy second', () => {
    expect(run([0.05, 0.5]).map((state) => state.mode)).toEqual(['idle', 'busy']);
  });

  it('turns busy, and stays so, while the sockets bring events, however lightly they load the loop', () => {
    expect(run([0.05], { mode: 'idle', quiet: 0 }, heapSizing.busyEvents).at(-1)!.mode).toBe('busy');
    const quietLoop = Array<number>(heapSizing.quietSeconds * 2).fill(0.05);
    expect(run(quietLoop, { mode: 'busy', quiet: 0 }, heapSizing.quietEvents).at(-1)).toEqual({ mode: 'busy', quiet: 0 });
    expect(run(quietLoop, { mode: 'busy', quiet: 0 }, heapSizing.quietEvents - 1).at(-1)!.mode).toBe('idle');
  });

  it('comes back only after the loop has been quiet for the whole stretch', () => {
    const quietStretch = Array<number>(heapSizing.quietSeconds).fill(0.05);
    const almost = run([...quietStretch.slice(1)], { mode: 'busy', quiet: 0 });
    expect(almost.at(-1)!.mode).toBe('busy');
    // A middling second (neither busy nor quiet) starts the stretch again.
    expect(run([...quietStretch.slice(1), 0.2, 0.05], { mode: 'busy', quiet: 0 }).at(-1)).toEqual({ mode: 'busy', quiet: 1 });
    expect(run(quietStretch, { mode: 'busy', quiet: 0 }).at(-1)!.mode).toBe('idle');
  });

  it('is fixed at start, and its return brings a full collection so that the limit a busy spell set does not stand', async () => {
    vi.useFakeTimers();
    const readings = [0.05, 0.6, ...Array<number>(heapSizing.quietSeconds).fill(0.05), 0.05];
    const calls: string[] = [];
    const effects = {
      setGrowingPercent: (percent: number) => calls.push(`factor ${percent}`),
      collectGarbage: (done: () => void) => {
        calls.push('collect');
        done();
      },
    };
    // The running total of events: a burst in the third second, then none; it is read as a count per second.
    let taken = 1000;
    const sizing = sizeHeap(() => taken, effects, () => readings.shift() ?? 0);
    try {
      expect(calls).toEqual([`factor ${heapSizing.idleGrowingPercent}`]);
      await vi.advanceTimersByTimeAsync(2000);
      expect(calls.slice(1)).toEqual([`factor ${heapSizing.busyGrowingPercent}`]);
      taken += heapSizing.busyEvents;
      await vi.advanceTimersByTimeAsync(heapSizing.quietSeconds * 1000);
      expect(calls.slice(2)).toEqual([]);
      await vi.advanceTimersByTimeAsync(2000);
      expect(calls.slice(2)).toEqual([`factor ${heapSizing.idleGrowingPercent}`, 'collect']);
    } finally {
      sizing.stop();
      vi.useRealTimers();
    }
  });
});

describe("V8's side of it", () => {
  it("collects through the process's own inspector, and answers", async () => {
    const effects = v8Effects();
    let garbage: object[] | undefined = Array.from({ length: 100_000 }, (_, i) => ({ i }));
    const unreachable = new WeakRef(garbage);
    garbage = undefined;
    await new Promise<void>((resolve) => effects.collectGarbage(resolve));
    expect(unreachable.deref()).toBeUndefined();
  });
});
