import { ErrorCode } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { TransactionGate } from './transaction-gate.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('TransactionGate', () => {
  it('runs at most `concurrency` tasks at once, the others in arrival order, and refuses as BUSY past the waiting bound', async () => {
    const gate = new TransactionGate(2, 2);
    const started: number[] = [];
    const finish = [deferred(), deferred(), deferred(), deferred()];
    const runs = finish.map((f, i) =>
      gate.run(async () => {
        started.push(i);
        await f.promise;
        return i;
      }),
    );
    await expect(gate.run(async () => 'late')).rejects.toMatchObject({ code: ErrorCode.Busy });
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    finish[1]!.resolve();
    expect(await runs[1]).toBe(1);
    expect(started).toEqual([0, 1, 2]);
    finish[0]!.resolve();
    finish[2]!.resolve();
    finish[3]!.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
    // Everything has drained: a new task runs at once.
    expect(await gate.run(async () => 'again')).toBe('again');
  });

  it('frees the slot of a task that fails', async () => {
    const gate = new TransactionGate(1, 0);
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 'next')).toBe('next');
  });
});
