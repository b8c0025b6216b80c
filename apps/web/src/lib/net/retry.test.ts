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
});
