/**
 * At most `width` tasks at once; the rest wait in one line per key (whose
 * work it is: the address that started the game), and a free place goes to
 * the keys in turn. So one address with hundreds of games waits behind
 * itself, and anyone else's turn comes after at most one of its tasks. A
 * task that must be done by a time leaves the line when it passes, having
 * done nothing.
 */
export class FairLane {
  private busy = 0;
  /** The keys in the order their turn comes (a Map keeps insertion order). */
  private readonly lines = new Map<string, Array<() => void>>();

  constructor(private readonly width: number) {}

  /** Runs `task` in its turn; undefined, without running it, if `deadlineAt` (epoch ms) passes first. */
  async run<T>(key: string, task: () => Promise<T>, deadlineAt = Infinity): Promise<T | undefined> {
    if (!(await this.place(key, deadlineAt))) return undefined;
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private place(key: string, deadlineAt: number): Promise<boolean> {
    if (this.busy < this.width && this.lines.size === 0) {
      this.busy++;
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

  private release(): void {
    const next = this.lines.entries().next();
    if (next.done) {
      this.busy--;
      return;
    }
    const [key, line] = next.value;
    // The place passes straight on; this key goes to the back of the turns.
    this.lines.delete(key);
    const turn = line.shift()!;
    if (line.length > 0) this.lines.set(key, line);
    turn();
  }
}
