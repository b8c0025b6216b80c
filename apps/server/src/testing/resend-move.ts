import { resendPauseMs, type Ack } from '@oanquan/protocol';
import { expect } from 'vitest';

/**
 * Resends a move, as the web client does (with its jittered pauses), while it is refused with the
 * retryable UNAVAILABLE (and nothing else) until it is accepted, for at most
 * `timeoutMs`; answers the version it made and when it was accepted.
 */
export async function resendUntilAccepted(send: () => Promise<Ack<'move'>>, timeoutMs: number): Promise<{ version: number; at: number }> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const ack = await send();
    if (ack.ok) return { version: ack.version, at: Date.now() };
    expect(ack.code).toBe('UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(timeoutMs);
    await new Promise((resolve) => setTimeout(resolve, resendPauseMs(attempt)));
  }
}
