/**
 * The socket events a process has taken and not yet acknowledged. A draining
 * process closes it before it lets its sockets go: an event arriving after
 * that is refused (as UNAVAILABLE, so the client sends it again, with the same
 * moveId, to the node it reconnects to), and `close` resolves once every event
 * taken before has been acknowledged. So no move committed here leaves its
 * player without the answer.
 */
export class EventsInFlight {
  private count = 0;
  private open = true;
  /** Every event taken since the process started: how busy its sockets are (heap-sizing.ts reads it). */
  taken = 0;
  private readonly waiting: Array<() => void> = [];

  /** Whether the event may be handled; if so, `done` must follow its acknowledgement. */
  take(): boolean {
    if (!this.open) return false;
    this.count++;
    this.taken++;
    return true;
  }

  done(): void {
    this.count--;
    if (this.count === 0) for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** Takes no more events; resolves once those taken are acknowledged. */
  close(): Promise<void> {
    this.open = false;
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }
}
