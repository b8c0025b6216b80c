/**
 * Runs tasks one at a time per key (a match), in arrival order, so that two
 * moves of one match never race inside this process. Across processes the
 * version compare-and-set keeps them correct.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Resolves once every task queued so far has settled. */
  async drain(): Promise<void> {
    await Promise.all(this.tails.values());
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
