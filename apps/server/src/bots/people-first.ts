/**
 * People's moves (games between people) in flight in this process. Work of
 * games against the computer waits while any is (see yielding-lane.ts), so a
 * person's move never queues on the event loop behind a crowd of computer
 * games; when the last one is done, the waiting lanes are told.
 */
export class PeopleFirst {
  private pending = 0;
  private readonly listeners = new Set<() => void>();

  busy(): boolean {
    return this.pending > 0;
  }

  /** Runs a person's move, counted as pending until it is done. */
  around<T>(task: () => Promise<T>): Promise<T> {
    this.pending++;
    const done = () => {
      if (--this.pending === 0) for (const listener of this.listeners) listener();
    };
    let result: Promise<T>;
    try {
      result = task();
    } catch (error) {
      done();
      return Promise.reject(error as Error);
    }
    // Counted down beside the caller's own wait rather than through an async function's: one promise less per move.
    result.then(done, done);
    return result;
  }

  /** `listener` is called each time people's work drops to none. */
  onIdle(listener: () => void): void {
    this.listeners.add(listener);
  }
}
