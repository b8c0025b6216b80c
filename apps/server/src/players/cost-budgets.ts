import { normalizeIP } from '@fastify/rate-limit';
import { ErrorCode } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { Counters } from '../limits/counters.js';
import type { PlayerService, Sitter } from './player-service.js';

/** What is kept once done: a seat or a queue entry, a room, the engine's work (a game against the computer, an analysis), a name, a challenge, a puzzle try; and a try at closing an account, which checks a password. */
export type Cost = 'seat' | 'room' | 'engine' | 'name' | 'challenge' | 'puzzle' | 'close';

export interface Budget {
  max: number;
  windowMs: number;
}

export interface CostBudgetSettings {
  /** Per address: guests who get a row (their first seat, room, game or name). */
  newPlayersPerAddress: Budget;
  /** Per address, for each cost. */
  perAddress: Partial<Record<Cost, Budget>>;
  /** Per person, for the costs the HTTP rate limits do not already count per person (seats and queue entries come by socket). */
  perPerson: Partial<Record<Cost, Budget>>;
}

const WHAT: Record<Cost | 'player', string> = {
  seat: 'seats taken',
  room: 'rooms made',
  engine: 'games against the computer and analyses',
  name: 'renames',
  challenge: 'challenges made',
  puzzle: 'puzzle moves',
  close: 'tries at closing an account',
  player: 'new players',
};

/**
 * Being a guest costs nothing; what is kept costs. Each cost is counted per
 * person and per address in fixed windows, sized so that a school or a
 * mobile carrier's few hundred people behind one address can all play,
 * while one script behind it cannot fill the database. The counters are
 * shared by every process when Redis is configured. The guest's row is
 * made here, on their first cost, with the id and name of their token.
 */
export class CostBudgets {
  constructor(
    private readonly players: PlayerService,
    private readonly counters: Counters,
    private readonly settings: CostBudgetSettings,
  ) {}

  async pay(cost: Cost, sitter: Sitter, rawAddress: string): Promise<void> {
    // As the HTTP limits count it, so an IPv4-mapped address is its IPv4 address.
    const address = normalizeIP(rawAddress);
    const charges: [string, Budget | undefined, string][] = [
      [`cost:${cost}:address:${address}`, this.settings.perAddress[cost], `${WHAT[cost]} from this address`],
      [`cost:${cost}:player:${sitter.player.id}`, this.settings.perPerson[cost], WHAT[cost]],
    ];
    if (!sitter.hasRow) charges.push([`cost:player:address:${address}`, this.settings.newPlayersPerAddress, `${WHAT.player} from this address`]);
    // Counted one by one and judged on the count itself, so requests arriving together cannot all slip under a budget.
    for (const [key, budget, what] of charges) {
      if (!budget) continue;
      const { value, ttlMs } = await this.counters.count(key, budget.windowMs);
      if (value > budget.max) throw new ServiceError(ErrorCode.RateLimited, `Too many ${what}; try again in ${Math.max(1, Math.ceil(ttlMs / 1000))} seconds`, 429);
    }
    await this.players.ensureRow(sitter);
  }
}
