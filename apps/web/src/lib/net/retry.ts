// The codes alone, not the package's zod schemas: zod probes for eval when it parses, which the page's CSP reports.
import { isRetryable } from '@oanquan/protocol/error-codes';
import { resendPauseMs } from '@oanquan/protocol/resend-pauses';

/**
 * Sends a request again while the server refuses it with a retryable code
 * (overloaded, or its database briefly unreachable): the very same payload, so a move keeps
 * its moveId and is applied at most once. Gives up after `totalMs` and hands
 * back the last refusal, which the caller shows like any other.
 */
export async function resendWhileRetryable<A extends { ok: boolean; code?: string }>(
  send: () => Promise<A>,
  totalMs = 30_000,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: () => number = Math.random,
): Promise<A> {
  const started = Date.now();
  let answer = await send();
  for (let attempt = 0; !answer.ok && answer.code !== undefined && isRetryable(answer.code); attempt++) {
    // Jittered (see resend-pauses.ts): the clients a fault refused together come back spread out.
    const delay = resendPauseMs(attempt, random);
    if (Date.now() - started + delay > totalMs) break;
    await sleep(delay);
    answer = await send();
  }
  return answer;
}
