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
    const previous = this.tails.get(key);
    // A key with nothing in front starts at once (every move of a game but one sent too early): no turn of the microtask queue to wait.
    const result = previous ? previous.then(task, task) : startNow(task);
    const forget = () => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    const tail: Promise<void> = result.then(forget, forget);
    this.tails.set(key, tail);
    return result;
  }
}

/** `task()`, with a synchronous throw as a rejection, as `then` would give it. */
function startNow<T>(task: () => Promise<T>): Promise<T> {
  try {
    return task();
  } catch (error) {
    return Promise.reject(error as Error);
  }
}
