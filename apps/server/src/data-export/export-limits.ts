import { normalizeIP } from '@fastify/rate-limit';
import { ErrorCode } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { Counters } from '../limits/counters.js';

export interface ExportLimitSettings {
  perPlayer: number;
  perAddress: number;
  windowMs: number;
  /** Downloads this process streams at once. */
  atOnce: number;
}

/**
 * What downloads of one's data may cost. Each is counted per player and per
 * address in the limits' counters (across every process with Redis): a
 * guest costs nothing to make, so a budget per player alone would let one
 * address ask without end. The running cap bounds the database reads one
 * process makes for downloads at any moment, whoever asks.
 */
export class ExportLimits {
  private running = 0;

  constructor(
    private readonly counters: Counters,
    private readonly settings: ExportLimitSettings,
  ) {}

  /**
   * A place among the downloads running, once both budgets allow one more;
   * `release` gives the place back. A busy process refuses before counting,
   * so BUSY costs no one their budget.
   */
  async admit(playerId: string, rawAddress: string): Promise<{ release: () => void }> {
    if (this.running >= this.settings.atOnce) throw new ServiceError(ErrorCode.Busy, 'Too many downloads at once; try again in a moment', 503, 5);
    this.running++;
    let released = false;
    const release = () => {
      if (!released) this.running--;
      released = true;
    };
    try {
      // Counted one by one and judged on the count itself, so requests arriving together cannot all slip under a budget.
      await this.charge(`address:${normalizeIP(rawAddress)}`, this.settings.perAddress, 'from this address');
      await this.charge(`player:${playerId}`, this.settings.perPlayer, '');
    } catch (error) {
      release();
      throw error;
    }
    return { release };
  }

  private async charge(who: string, max: number, where: string): Promise<void> {
    const { value, ttlMs } = await this.counters.count(`export:${who}`, this.settings.windowMs);
    if (value <= max) return;
    const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
    throw new ServiceError(ErrorCode.RateLimited, `Too many downloads of your data${where ? ` ${where}` : ''}; try again in ${seconds} seconds`, 429, seconds);
  }
}
