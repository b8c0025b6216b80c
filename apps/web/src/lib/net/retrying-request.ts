import { RETRYABLE_CODES, type ErrorCode } from '@oanquan/protocol';

/** Waits before each resend: short at first, so a brief overload costs little, then longer. */
export const RETRY_DELAYS_MS: readonly number[] = [100, 250, 500, 1000, 2000];

/**
 * Sends a request and, while the server refuses it with a code that says
 * nothing was done and it may simply come again (BUSY), sends the very same
 * request again after a growing pause. The request must be safe to repeat:
 * a move carries its moveId, so the server applies it at most once.
 */
export async function requestRetrying<A extends { ok: true } | { ok: false; code: string }>(
  send: () => Promise<A>,
  delaysMs: readonly number[] = RETRY_DELAYS_MS,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<A> {
  let answer = await send();
  for (const delay of delaysMs) {
    if (answer.ok || !RETRYABLE_CODES.has(answer.code as ErrorCode)) break;
    await sleep(delay);
    answer = await send();
  }
  return answer;
}
