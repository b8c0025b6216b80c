import { normalizeIP } from '@fastify/rate-limit';
import { ErrorCode } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { PlayerService, Sitter } from './player-service.js';

/** What is kept once done: a seat or a queue entry, a room, the engine's work (a game against the computer, an analysis), a name. */
export type Cost = 'seat' | 'room' | 'engine' | 'name';

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

interface Window {
  used: number;
  endsAt: number;
}

const WHAT: Record<Cost | 'player', string> = {
  seat: 'seats taken',
  room: 'rooms made',
  engine: 'games against the computer and analyses',
  name: 'renames',
  player: 'new players',
};

/**
 * Being a guest costs nothing; what is kept costs. Each cost is counted per
 * person and per address in fixed windows, sized so that a school or a
 * mobile carrier's few hundred people behind one address can all play,
 * while one script behind it cannot fill the database. The guest's row is
 * made here, on their first cost, with the id and name of their token.
 */
export class CostBudgets {
  private readonly windows = new Map<string, Window>();
  private pruneAt = 0;

  constructor(
    private readonly players: PlayerService,
    private readonly settings: CostBudgetSettings,
    private readonly now: () => number = Date.now,
  ) {}

  async pay(cost: Cost, sitter: Sitter, rawAddress: string): Promise<void> {
    // As the HTTP limits count it: one IPv4 address, one IPv6 /56, an IPv4-mapped address as its IPv4.
    const address = normalizeIP(rawAddress);
    const charges: [string, Budget | undefined, string][] = [
      [`${cost}:address:${address}`, this.settings.perAddress[cost], `${WHAT[cost]} from this address`],
      [`${cost}:player:${sitter.player.id}`, this.settings.perPerson[cost], WHAT[cost]],
    ];
    if (!sitter.hasRow) charges.push([`player:address:${address}`, this.settings.newPlayersPerAddress, `${WHAT.player} from this address`]);
    const now = this.now();
    this.prune(now);
    const due = charges.flatMap(([key, budget, what]) => (budget ? [{ key, budget, what, window: this.windowOf(key, budget, now) }] : []));
    // Nothing is counted unless everything fits, so a refusal costs no budget.
    const full = due.find(({ budget, window }) => window.used >= budget.max);
    if (full) {
      const seconds = Math.ceil((full.window.endsAt - now) / 1000);
      throw new ServiceError(ErrorCode.RateLimited, `Too many ${full.what}; try again in ${seconds} seconds`, 429);
    }
    for (const { window } of due) window.used += 1;
    await this.players.ensureRow(sitter);
  }

  private windowOf(key: string, budget: Budget, now: number): Window {
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) this.windows.set(key, (window = { used: 0, endsAt: now + budget.windowMs }));
    return window;
  }

  // Ended windows are dropped once a minute, so addresses seen once do not stay.
  private prune(now: number): void {
    if (now < this.pruneAt) return;
    this.pruneAt = now + 60_000;
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}
