// Caps on what a person, or an address, has running at once (games against
// the computer, analyses waiting), as opposed to the rate limits on how
// often they start one. Each key (a player, an address) holds the ids of
// what it started; an id stops counting once the database says it is no
// longer running, asked when the key starts something again, so nothing has
// to tell the cap that a game ended. Counted in this process, like the rate
// limits.

import type { ServiceError } from '../errors.js';

export interface Cap {
  /** Whose: "player:<id>" or "address:<ip>". */
  readonly key: string;
  readonly limit: number;
  /** What the client is told when the key is full. */
  readonly refusal: () => ServiceError;
}

/** Every key is looked over at least this often, so that keys never asked again do not keep their ids for ever. */
const FULL_PRUNE_EVERY_MS = 60_000;

export class RunningCaps {
  private readonly held = new Map<string, Set<string>>();
  /** Starts admitted and not yet finished, so two at once cannot both take the last place. */
  private readonly starting = new Map<string, number>();
  private lastFullPrune = Date.now();

  /** `running` answers which of the ids are still running. */
  constructor(private readonly running: (ids: string[]) => Promise<Set<string>>) {}

  /** Runs `start` if every cap has room, and counts what it started (its id) against each; otherwise throws the first full cap's refusal. */
  async admit<T>(caps: readonly Cap[], start: () => Promise<{ id: string; result: T }>): Promise<T> {
    const full = Date.now() - this.lastFullPrune > FULL_PRUNE_EVERY_MS;
    if (full) this.lastFullPrune = Date.now();
    await this.prune(full ? [...this.held.keys()] : caps.map((cap) => cap.key));
    const over = caps.find((cap) => (this.held.get(cap.key)?.size ?? 0) + (this.starting.get(cap.key) ?? 0) >= cap.limit);
    if (over) throw over.refusal();
    for (const { key } of caps) this.starting.set(key, (this.starting.get(key) ?? 0) + 1);
    try {
      const { id, result } = await start();
      for (const { key } of caps) {
        const ids = this.held.get(key) ?? new Set<string>();
        this.held.set(key, ids.add(id));
      }
      return result;
    } finally {
      for (const { key } of caps) {
        const left = this.starting.get(key)! - 1;
        if (left > 0) this.starting.set(key, left);
        else this.starting.delete(key);
      }
    }
  }

  private async prune(keys: readonly string[]): Promise<void> {
    const ids = [...new Set(keys.flatMap((key) => [...(this.held.get(key) ?? [])]))];
    if (ids.length === 0) return;
    const running = await this.running(ids);
    for (const key of keys) {
      const held = this.held.get(key);
      if (!held) continue;
      for (const id of held) if (!running.has(id)) held.delete(id);
      if (held.size === 0) this.held.delete(key);
    }
  }
}
