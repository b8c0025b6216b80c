import { normalizeIP } from '@fastify/rate-limit';
import { ErrorCode } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { Counters } from '../limits/counters.js';

/** Reading standings (a page, a player's arenas, watching), and joining or pausing. */
export type ArenaAct = 'read' | 'entry';

export interface ArenaLimitSettings {
  /** Per minute, per player and per address, for each act. */
  perPlayer: Record<ArenaAct, number>;
  perAddress: Record<ArenaAct, number>;
}

const WHAT: Record<ArenaAct, string> = { read: 'arena standings read', entry: 'arena joins and pauses' };

const MINUTE = 60_000;

/**
 * Arena reads and entries counted per person and per address, in the
 * limits' counters (across every process with Redis): a guest costs
 * nothing, so a budget per token alone would let one address read and
 * join without end. The address's budget is a few hundred people's, so a
 * school behind one address still plays an arena together.
 */
export class ArenaLimits {
  constructor(
    private readonly counters: Counters,
    private readonly settings: ArenaLimitSettings,
  ) {}

  /** The address's budget, then the player's (null: only the address, for a caller not yet identified). */
  async take(act: ArenaAct, playerId: string | null, rawAddress: string): Promise<void> {
    // Counted one by one and judged on the count itself, so requests arriving together cannot all slip under a budget.
    await this.charge(act, `address:${normalizeIP(rawAddress)}`, this.settings.perAddress[act]);
    if (playerId !== null) await this.takePersonal(act, playerId);
  }

  takePersonal(act: ArenaAct, playerId: string): Promise<void> {
    return this.charge(act, `player:${playerId}`, this.settings.perPlayer[act]);
  }

  private async charge(act: ArenaAct, who: string, max: number): Promise<void> {
    const { value, ttlMs } = await this.counters.count(`arena:${act}:${who}`, MINUTE);
    if (value > max) throw new ServiceError(ErrorCode.RateLimited, `Too many ${WHAT[act]}; try again in ${Math.max(1, Math.ceil(ttlMs / 1000))} seconds`, 429);
  }
}
