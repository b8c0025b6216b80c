/**
 * One read per key for any number of callers: a caller shares the next read
 * that starts after it asked, never one already under way (which may predate
 * what the caller has seen). So however many spectators ask about one room at
 * once, at most one read of it runs and one waits.
 */
export class SharedRead<T> {
  private readonly running = new Map<string, Promise<void>>();
  private readonly waiting = new Map<string, Promise<T>>();

  constructor(private readonly fetch: (key: string) => Promise<T>) {}

  read(key: string): Promise<T> {
    const waiting = this.waiting.get(key);
    if (waiting) return waiting;
    const running = this.running.get(key);
    if (!running) return this.start(key);
    const next = running.then(() => this.start(key));
    this.waiting.set(key, next);
    return next;
  }

  private start(key: string): Promise<T> {
    this.waiting.delete(key);
    const result = this.fetch(key);
    const settled = result.then(
      () => {},
      () => {},
    );
    this.running.set(key, settled);
    void settled.then(() => {
      if (this.running.get(key) === settled) this.running.delete(key);
    });
    return result;
  }
}
