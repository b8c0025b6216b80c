/**
 * How clients come back after a refusal or a lost connection, shared by the
 * web client and the test and load clients. Each pause is drawn around its
 * step (half to one and a half times it): clients refused together (a node
 * gone, the database back from an outage) then return spread out, not as one
 * storm that is refused again. Zod-free, so the page can import it.
 */

/**
 * The steps between resends of a request refused as BUSY or UNAVAILABLE:
 * quick at first, so a brief overload costs little, then about every second
 * (at most 1.5 s), so that play resumes within seconds of the database's return.
 */
export const resendStepsMs: readonly number[] = [100, 250, 500, 1000];

/** The pause before resend number `attempt` (0 for the first), jittered; `random` in [0, 1). */
export function resendPauseMs(attempt: number, random: () => number = Math.random): number {
  const step = resendStepsMs[Math.min(attempt, resendStepsMs.length - 1)]!;
  return Math.round(step * (0.5 + random()));
}

/**
 * Socket.IO client's reconnection: the first try 150–450 ms after the
 * connection is lost (a node killed, a drain), doubling up to 5 s, each
 * randomized by half.
 */
export const reconnectionOptions = { reconnectionDelay: 300, reconnectionDelayMax: 5_000, randomizationFactor: 0.5 } as const;
