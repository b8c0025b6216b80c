/**
 * At most `width` tasks at once, and at most `perKey` of one key's (whose
 * work it is: the address that started the game); the rest wait in one line
 * per key, and a free place goes to the keys in turn. So one address with
 * hundreds of games waits behind itself, cannot hold every place (with
 * `perKey` below `width`, anyone else finds one free or has the next), and
 * anyone else's turn comes after at most one of its tasks. A task that must
 * be done by a time leaves the line when it passes, having done nothing.
 */
export class FairLane {
  private busy = 0;
  /** Places held, by key. */
  private readonly holding = new Map<string, number>();
  /** The keys in the order their turn comes (a Map keeps insertion order). */
  private readonly lines = new Map<string, Array<() => void>>();

  constructor(
    private readonly width: number,
    private readonly perKey = width,
  ) {}

  /** Runs `task` in its turn; undefined, without running it, if `deadlineAt` (epoch ms) passes first. */
  async run<T>(key: string, task: () => Promise<T>, deadlineAt = Infinity): Promise<T | undefined> {
    if (!(await this.place(key, deadlineAt))) return undefined;
    try {
      return await task();
    } finally {
      this.release(key);
    }
  }

  private held(key: string): number {
    return this.holding.get(key) ?? 0;
  }

  private take(key: string): void {
    this.busy++;
    this.holding.set(key, this.held(key) + 1);
  }

  private place(key: string, deadlineAt: number): Promise<boolean> {
    // Every key still waiting while a place is free holds all it may: a key with no line of its own and room under its share goes first.
    if (this.busy < this.width && this.held(key) < this.perKey && !this.lines.has(key)) {
      this.take(key);
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const line = this.lines.get(key) ?? [];
      let timer: NodeJS.Timeout | undefined;
      const turn = () => {
        clearTimeout(timer);
        resolve(true);
      };
      line.push(turn);
      this.lines.set(key, line);
      if (deadlineAt === Infinity) return;
      timer = setTimeout(() => {
        const at = line.indexOf(turn);
        if (at < 0) return;
        line.splice(at, 1);
        if (line.length === 0 && this.lines.get(key) === line) this.lines.delete(key);
        resolve(false);
      }, Math.max(0, deadlineAt - Date.now()));
    });
  }

  private release(key: string): void {
    this.busy--;
    const left = this.held(key) - 1;
    if (left > 0) this.holding.set(key, left);
    else this.holding.delete(key);
    // The free place goes to the first key in turn that may hold one more; that key goes to the back of the turns.
    for (const [next, line] of this.lines) {
      if (this.held(next) >= this.perKey) continue;
      this.lines.delete(next);
      const turn = line.shift()!;
      if (line.length > 0) this.lines.set(next, line);
      this.take(next);
      turn();
      return;
    }
  }
}
