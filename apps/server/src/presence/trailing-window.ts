/**
 * Coalesces requests per key: the task runs once at the end of a window
 * opened by the first request, however many arrive meanwhile, and a request
 * made while it runs opens the next window after it. So a key's task runs at
 * most once per window, and always after the last request (trailing), so the
 * last run sees the final state.
 */
export class TrailingWindow {
  private readonly open = new Map<string, { again: boolean }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  /** Nobody waits for a coalesced run: `task` reports its own failures, and one failing does not stop later runs. */
  constructor(
    private readonly windowMs: number,
    private readonly task: (key: string) => Promise<void>,
  ) {}

  request(key: string): void {
    if (this.stopped) return;
    const held = this.open.get(key);
    if (held) {
      held.again = true;
      return;
    }
    const window = { again: false };
    this.open.set(key, window);
    this.wait(key, window);
  }

  /** Drops every window still open; their tasks never run. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.open.clear();
  }

  private wait(key: string, window: { again: boolean }): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      window.again = false;
      const after = () => {
        if (window.again && !this.stopped) this.wait(key, window);
        else this.open.delete(key);
      };
      this.task(key).then(after, after);
    }, this.windowMs);
    this.timers.add(timer);
  }
}
