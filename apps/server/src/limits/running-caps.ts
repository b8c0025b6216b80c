// Caps on what a person, or an address, has running at once (games against
// the computer, analyses waiting), as opposed to the rate limits on how
// often they start one. Each key (a player, an address) holds places in the
// limits' counters, one per id of what it started: with Redis, every process
// counts against the same cap. An id stops counting once the database says
// it is no longer running, asked when the key starts something again, so
// nothing has to tell the cap that a game ended.

import { randomUUID } from 'node:crypto';
import type { ServiceError } from '../errors.js';
import type { Counters } from './counters.js';

export interface Cap {
  /** Whose: "player:<id>" or "address:<ip>". */
  readonly key: string;
  readonly limit: number;
  /** What the client is told when the key is full. */
  readonly refusal: () => ServiceError;
}

/** What this process started is looked over at least this often, so that keys never asked again do not keep their ids for ever. */
const FULL_PRUNE_EVERY_MS = 60_000;
/** A start admitted and not yet finished holds a place of this name, so two at once (on any process) cannot both take the last place. */
const STARTING = 'starting:';

export class RunningCaps {
  /** The ids this process started, by key. */
  private readonly started = new Map<string, Set<string>>();
  private lastFullPrune = Date.now();

  /** `kind` names what is capped, in the counters' keys; `running` answers which of the ids are still running. */
  constructor(
    private readonly places: Counters,
    private readonly kind: string,
    private readonly running: (ids: string[]) => Promise<Set<string>>,
  ) {}

  /** Runs `start` if every cap has room, and counts what it started (its id) against each; otherwise throws the first full cap's refusal. */
  async admit<T>(caps: readonly Cap[], start: () => Promise<{ id: string; result: T }>): Promise<T> {
    const full = Date.now() - this.lastFullPrune > FULL_PRUNE_EVERY_MS;
    if (full) this.lastFullPrune = Date.now();
    await this.prune(caps.map((cap) => cap.key), full);
    const starting = STARTING + randomUUID();
    const taken: Cap[] = [];
    try {
      for (const cap of caps) {
        if (!(await this.places.hold(this.placeOf(cap.key), starting, cap.limit))) throw cap.refusal();
        taken.push(cap);
      }
      const { id, result } = await start();
      for (const { key } of caps) {
        // The start's place is already counted: this one takes it over, whatever the count.
        await this.places.hold(this.placeOf(key), id, Number.MAX_SAFE_INTEGER);
        this.started.set(key, (this.started.get(key) ?? new Set<string>()).add(id));
      }
      return result;
    } finally {
      await Promise.all(taken.map((cap) => this.places.release(this.placeOf(cap.key), starting)));
    }
  }

  /** Gives back the places of what no longer runs: every process's under the keys asked, and now and then this process's under every key. */
  private async prune(keys: readonly string[], full: boolean): Promise<void> {
    const asked = await Promise.all(keys.map(async (key) => [key, await this.places.holders(this.placeOf(key))] as const));
    const mine = full ? [...this.started].map(([key, ids]) => [key, [...ids]] as const) : [];
    const held = [...asked, ...mine].map(([key, ids]) => [key, ids.filter((id) => !id.startsWith(STARTING))] as const);
    const ids = [...new Set(held.flatMap(([, ids]) => ids))];
    if (ids.length === 0) return;
    const running = await this.running(ids);
    const ended = held.flatMap(([key, ids]) => ids.filter((id) => !running.has(id)).map((id) => [key, id] as const));
    await Promise.all(ended.map(([key, id]) => this.places.release(this.placeOf(key), id)));
    for (const [key, id] of ended) {
      const started = this.started.get(key);
      if (started?.delete(id) && started.size === 0) this.started.delete(key);
    }
  }

  private placeOf(key: string): string {
    return `running:${this.kind}:${key}`;
  }
}
