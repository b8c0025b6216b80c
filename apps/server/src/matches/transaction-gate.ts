import { ErrorCode } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';

/**
 * At most `concurrency` transactions at once, the rest waiting here in
 * arrival order, and at most `maxWaiting` of those: past that the request is
 * refused as BUSY, having done nothing. Waiting here rather than for a pool
 * connection means a burst (a thousand openers at once) is served in turn
 * instead of timing out in the database client and being sent again.
 */
export class TransactionGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) throw new ServiceError(ErrorCode.Busy, 'The server is busy; try again in a moment', 503);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      // The slot passes straight to the next in line, so none can jump the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
