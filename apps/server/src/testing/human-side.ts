// A person's side of a game against the computer, for tests: it follows the
// match from the snapshot its join returned (the computer may have moved
// before the person's join arrived) and the events after it, and whenever it
// is its turn plays a legal move drawn by a seeded generator.

import { legalMoves, newGame, play, type Move, type Player, type RuleOptions, type State } from '@oanquan/rules';
import { stateOfSnapshot, type MatchSnapshot, type Seat } from '@oanquan/protocol';
import type { TestClient } from './live.js';

export class HumanSide {
  private x: number;

  constructor(
    private readonly client: TestClient,
    private readonly matchId: string,
    readonly seat: Seat,
    options: { seed?: number; joined?: MatchSnapshot } = {},
  ) {
    this.x = options.seed ?? 5;
    this.joined = options.joined;
  }

  private readonly joined: MatchSnapshot | undefined;

  /** The game as the join's snapshot and the events since tell it. */
  state(rules: RuleOptions): State {
    const started = this.events().find((e) => e.type === 'started');
    let state = this.joined?.first != null
      ? stateOfSnapshot(this.joined)
      : newGame({ rules, first: (started?.type === 'started' ? started.first : 0) as Player });
    for (const event of this.events()) {
      if (event.type !== 'moved') continue;
      const next = play(state, { square: event.square, dir: event.dir });
      if (!next.ok) throw new Error(next.code);
      state = next.state;
    }
    return state;
  }

  /** Who made the latest move so far, from the first mover: turns alternate (R3). */
  lastMover(): Seat | null {
    const first = this.first();
    const moves = (this.joined?.moves.length ?? 0) + this.events().filter((e) => e.type === 'moved').length;
    return first !== null && moves > 0 ? (((first + moves - 1) % 2) as Seat) : null;
  }

  private first(): Seat | null {
    const started = this.events().find((e) => e.type === 'started');
    return this.joined?.first ?? (started?.type === 'started' ? started.first : null);
  }

  /** The match's events this client received after the join's snapshot. */
  events() {
    const after = this.joined?.version ?? 0;
    return this.client.events.filter((e) => e.matchId === this.matchId && e.version > after).map((e) => e.event);
  }

  ended(): boolean {
    return this.joined?.status === 'ended' || this.events().some((e) => e.type === 'ended');
  }

  /** Plays its turns until the match ends or `stopAfter` of its own moves have been made, thinking `thinkMs` before each. */
  async playUntilEnd(rules: RuleOptions, stopAfter = Infinity, timeoutMs = 60_000, thinkMs = 0): Promise<number> {
    let made = 0;
    const deadline = Date.now() + timeoutMs;
    while (!this.ended() && made < stopAfter) {
      const state = this.state(rules);
      if (state.position.toMove === this.seat && state.position.status === 'playing' && this.first() !== null) {
        if (thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, thinkMs));
        const legal = legalMoves(state);
        this.x = (this.x * 1103515245 + 12345) % 2147483648;
        const move: Move = legal[this.x % legal.length]!;
        const version = Math.max(this.joined?.version ?? 0, ...this.client.events.filter((e) => e.matchId === this.matchId).map((e) => e.version));
        const ack = await this.client.request('move', { matchId: this.matchId, moveId: `h${state.position.ply}`, version, ...move });
        if (!ack.ok) throw new Error(`move refused: ${ack.code} ${ack.message}`);
        await this.client.waitForVersion(ack.version);
        made++;
        continue;
      }
      const seen = this.client.version;
      await this.client.until(() => this.client.version > seen, 'the computer to act', Math.max(1, deadline - Date.now()));
    }
    return made;
  }
}
