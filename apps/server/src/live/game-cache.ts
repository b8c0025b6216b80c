import { newGame, play, type Move, type Player, type RuleOptions, type State } from '@oanquan/rules';
import type { MatchRow } from '../match-records/match-store.js';

/** A live match as this process last committed or read it: the row and the rules state of its version. */
export interface LiveGame {
  match: MatchRow;
  state: State;
}

/**
 * The live matches this process knows, each at the version it belongs to. A
 * move is decided against it without reading the database; a miss (a
 * restart, or a change made by another process, which the version
 * compare-and-set reveals) rebuilds it from the stored moves, which is what
 * makes a match recoverable from its rows alone; the repetition history
 * (R4.5) comes back with it.
 */
export class GameCache {
  private readonly games = new Map<string, LiveGame>();

  /** The entry, if any; with `version`, only if it is of that version. */
  get(matchId: string, version?: number): LiveGame | undefined {
    const entry = this.games.get(matchId);
    return version === undefined || entry?.match.version === version ? entry : undefined;
  }

  set(match: MatchRow, state: State): void {
    this.games.set(match.id, { match, state });
  }

  delete(matchId: string): void {
    this.games.delete(matchId);
  }

  clear(): void {
    this.games.clear();
  }

  static rebuild(rules: RuleOptions, first: Player, moves: readonly Move[]): State {
    let state = newGame({ rules, first });
    for (const move of moves) {
      const result = play(state, move);
      // Stored moves were checked when they were played; a failure here means corrupted rows.
      if (!result.ok) throw new Error(`stored move ${JSON.stringify(move)} is illegal: ${result.code}`);
      state = result.state;
    }
    return state;
  }
}
