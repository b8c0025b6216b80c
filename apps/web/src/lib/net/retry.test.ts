import { describe, expect, it } from 'vitest';
import { resendWhileRetryable } from './retry.js';

type Answer = { ok: true; version: number } | { ok: false; code: string; message: string };

describe('resendWhileRetryable', () => {
  const noWait = async () => {};

  it('resends the same request while it is refused as UNAVAILABLE, then hands back the success', async () => {
    const answers: Answer[] = [
      { ok: false, code: 'UNAVAILABLE', message: 'down' },
      { ok: false, code: 'UNAVAILABLE', message: 'down' },
      { ok: true, version: 9 },
    ];
    let sent = 0;
    const answer = await resendWhileRetryable(async () => answers[sent++]!, 30_000, noWait);
    expect(answer).toEqual({ ok: true, version: 9 });
    expect(sent).toBe(3);
  });

  it('never resends a refusal about the request itself', async () => {
    let sent = 0;
    const answer = await resendWhileRetryable(async (): Promise<Answer> => (sent++, { ok: false, code: 'STALE_VERSION', message: 'stale' }), 30_000, noWait);
    expect(answer).toMatchObject({ code: 'STALE_VERSION' });
    expect(sent).toBe(1);
  });

  it('gives up once the time allowed is spent and returns the last refusal', async () => {
    let sent = 0;
    const answer = await resendWhileRetryable(async (): Promise<Answer> => (sent++, { ok: false, code: 'UNAVAILABLE', message: 'down' }), 0, noWait);
    expect(answer).toMatchObject({ code: 'UNAVAILABLE' });
    expect(sent).toBe(1);
  });

  it('resends a move refused as BUSY with the very same payload, waiting longer each time', async () => {
    const payload = { moveId: 'm-1', version: 4 };
    const sent: Array<typeof payload> = [];
    const waits: number[] = [];
    const answers: Answer[] = [
      { ok: false, code: 'BUSY', message: 'busy' },
      { ok: false, code: 'BUSY', message: 'busy' },
      { ok: true, version: 5 },
    ];
    const answer = await resendWhileRetryable(async () => (sent.push({ ...payload }), answers.shift()!), 30_000, async (ms) => void waits.push(ms), () => 0.5);
    expect(answer).toEqual({ ok: true, version: 5 });
    expect(sent).toEqual([payload, payload, payload]);
    expect(waits).toEqual([100, 250]);
  });

  it('spreads the resends of clients refused together', async () => {
    const firstWait = async (random: number) => {
      const waits: number[] = [];
      const answers: Answer[] = [{ ok: false, code: 'UNAVAILABLE', message: 'down' }, { ok: true, version: 1 }];
      await resendWhileRetryable(async () => answers.shift()!, 30_000, async (ms) => void waits.push(ms), () => random);
      return waits[0];
    };
    expect(await firstWait(0)).toBe(50);
    expect(await firstWait(0.99)).toBe(149);
  });
});
