import { ErrorCode } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { requestRetrying } from './retrying-request.js';

type Answer = { ok: true; version: number } | { ok: false; code: string; message: string };

/** A sender that answers from a script and records each payload it was given. */
function scripted(answers: Answer[]) {
  const payload = { moveId: 'm-1', version: 4 };
  const sent: Array<typeof payload> = [];
  return {
    sent,
    send: async () => {
      sent.push({ ...payload });
      const answer = answers.shift();
      if (!answer) throw new Error('asked more often than scripted');
      return answer;
    },
  };
}

const busy: Answer = { ok: false, code: ErrorCode.Busy, message: 'busy' };

describe('requestRetrying', () => {
  it('sends the same request again after each BUSY, waiting longer each time, until it is taken', async () => {
    const waits: number[] = [];
    const { send, sent } = scripted([busy, busy, { ok: true, version: 5 }]);
    const answer = await requestRetrying(send, [10, 20, 40], async (ms) => void waits.push(ms));
    expect(answer).toEqual({ ok: true, version: 5 });
    expect(sent).toEqual([{ moveId: 'm-1', version: 4 }, { moveId: 'm-1', version: 4 }, { moveId: 'm-1', version: 4 }]);
    expect(waits).toEqual([10, 20]);
  });

  it('gives up after the last pause and hands back the refusal', async () => {
    const { send, sent } = scripted([busy, busy, busy]);
    const answer = await requestRetrying(send, [1, 1], async () => {});
    expect(answer).toMatchObject({ ok: false, code: ErrorCode.Busy });
    expect(sent).toHaveLength(3);
  });

  it('never resends a refusal that is final', async () => {
    const { send, sent } = scripted([{ ok: false, code: ErrorCode.NotYourTurn, message: 'wait' }]);
    const answer = await requestRetrying(send, [1, 1], async () => {});
    expect(answer).toMatchObject({ ok: false, code: ErrorCode.NotYourTurn });
    expect(sent).toHaveLength(1);
  });

  it('waits for real between sends by default', async () => {
    const { send } = scripted([busy, { ok: true, version: 5 }]);
    const started = performance.now();
    await requestRetrying(send, [30]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
});
