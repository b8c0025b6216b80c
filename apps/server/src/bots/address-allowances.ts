/** Addresses whose rate is remembered at once; past it the ones with a full allowance are forgotten (they lose nothing). */
const ADDRESSES_KEPT = 10_000;

/**
 * A token bucket per address: `perSecond` tokens a second, up to a second's
 * worth. `take` may run the balance into debt, down to `-maxDebt`: a taker
 * told to wait has reserved its token, so waiters are served in the order
 * they came and never more than `perSecond` in any second on the whole.
 */
export class AddressAllowances {
  private readonly allowances = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token if one is there: true, or false having taken nothing. */
  tryTake(address: string): boolean {
    const allowance = this.refilled(address);
    if (allowance.tokens < 1) return false;
    allowance.tokens -= 1;
    return true;
  }

  /**
   * Reserves the next token: how long to wait for it in ms (0: at once), or
   * undefined, having reserved nothing, when `maxDebt` tokens are already reserved.
   */
  reserve(address: string, maxDebt: number): number | undefined {
    const allowance = this.refilled(address);
    if (allowance.tokens - 1 < -maxDebt) return undefined;
    allowance.tokens -= 1;
    return allowance.tokens >= 0 ? 0 : (-allowance.tokens / this.perSecond) * 1000;
  }

  private refilled(address: string): { tokens: number; at: number } {
    const now = this.now();
    let allowance = this.allowances.get(address);
    if (!allowance) {
      if (this.allowances.size >= ADDRESSES_KEPT) this.forgetFull(now);
      allowance = { tokens: this.perSecond, at: now };
      this.allowances.set(address, allowance);
    }
    allowance.tokens = Math.min(this.perSecond, allowance.tokens + ((now - allowance.at) / 1000) * this.perSecond);
    allowance.at = now;
    return allowance;
  }

  private forgetFull(now: number): void {
    for (const [address, allowance] of this.allowances) {
      if (allowance.tokens + ((now - allowance.at) / 1000) * this.perSecond >= this.perSecond) this.allowances.delete(address);
    }
    // Still full of addresses using their allowance: the longest-known go (a fresh allowance is the most they gain, a second's worth).
    for (const address of this.allowances.keys()) {
      if (this.allowances.size < ADDRESSES_KEPT) break;
      this.allowances.delete(address);
    }
  }
}
