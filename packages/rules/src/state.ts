// R2.4, R4.5, R6: a game in progress is its rule options, its R8 position
// and the R4.5 history of earlier states.
//
// The position is kept in exactly the R8 shape so it can be sent, stored and
// compared as it is; the repetition history stays beside it, because R8
// leaves no room for it and a position alone cannot tell a third occurrence
// from a first. A State is for playing on; to store or send a game, keep its
// rules, first player and moves (`replay` rebuilds it) or its position.

import type { Player } from './board.js';
import { startPosition, validatePosition, type Position } from './position.js';
import { RepetitionHistory } from './repetition.js';
import { resolveRules, type RuleOptions } from './rule-options.js';

export interface State {
  readonly rules: RuleOptions;
  readonly position: Position;
  readonly history: RepetitionHistory;
}

/** R8's setup: missing options take their defaults (R6); player 0 moves first unless told. */
export interface GameSetup {
  readonly rules?: Partial<RuleOptions>;
  readonly first?: Player;
}

/**
 * The start of a game (R2). Bad options or a bad first player are a
 * programming error here and throw; untrusted options go through
 * `validateRules` first.
 */
export function newGame(setup: GameSetup = {}): State {
  const first = setup.first ?? 0;
  if (first !== 0 && first !== 1) throw new RangeError('first must be 0 or 1');
  const rules = resolveRules(setup.rules);
  return fromPosition(rules, startPosition(first));
}

/**
 * A game continuing from any valid position, for studies and tests. What
 * happened before it is unknown, so R4.5 counts from here. Throws on an
 * invalid position; check untrusted ones with `validatePosition`.
 */
export function stateFromPosition(position: Position, rules?: Partial<RuleOptions>): State {
  const checked = validatePosition(position);
  if (!checked.ok) throw new RangeError(checked.message);
  return fromPosition(resolveRules(rules), checked.position);
}

function fromPosition(rules: RuleOptions, position: Position): State {
  const history = RepetitionHistory.start(
    position.squares,
    position.captured[0].dan,
    position.captured[1].dan,
    position.toMove,
  );
  return { rules, position, history };
}
