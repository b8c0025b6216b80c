/** Long enough for a service to start, stop or be noticed on a machine at a load average of 20; a quiet one answers in a fraction of it. */
export const generousMs = 30_000;

/**
 * Waits until `condition` holds (a check that throws, such as a request to a
 * port nobody listens on yet, counts as not yet), checking every `everyMs`,
 * for at most `timeoutMs`; answers how long it waited. Giving up, it says what
 * it was waiting for, how long, and the last error of the check.
 */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  { timeoutMs = generousMs, everyMs = 100 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<number> {
  const started = Date.now();
  let lastError: unknown;
  for (;;) {
    try {
      if (await condition()) return Date.now() - started;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() - started > timeoutMs) {
      const cause = lastError === undefined ? '' : ` (last check failed: ${lastError instanceof Error ? lastError.message : String(lastError)})`;
      throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Whether a line matching `pattern` was written to `output` after `mark` (its length when the test acted), so an older line never counts. */
export function loggedSince(output: () => string, mark: number, pattern: RegExp): () => boolean {
  return () => pattern.test(output().slice(mark));
}
