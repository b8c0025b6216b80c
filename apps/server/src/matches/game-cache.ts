import { newGame, play, type Move, type Player, type RuleOptions, type State } from '@oanquan/rules';

/**
 * The rules state of each live match, keyed by the match version it belongs
 * to. A miss (a restart, or a change made by another process) rebuilds it
 * from the stored moves, which is what makes a match recoverable from its
 * rows alone; the repetition history (R4.5) comes back with it.
 */
export class GameCache {
  private readonly games = new Map<string, { version: number; state: State }>();

  get(matchId: string, version: number): State | undefined {
    const entry = this.games.get(matchId);
    return entry?.version === version ? entry.state : undefined;
  }

  set(matchId: string, version: number, state: State): void {
    this.games.set(matchId, { version, state });
  }

  delete(matchId: string): void {
    this.games.delete(matchId);
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
