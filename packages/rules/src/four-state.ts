// R10.2–R10.6: a four-player game in progress is its rule options, its
// R10.9 position and the R4.5 history of earlier states (see state.ts for
// why the history stays beside the position).

import type { Seat } from './four-board.js';
import { fourStartPosition, validateFourPosition, type FourPosition } from './four-position.js';
import { FourHistory } from './four-repetition.js';
import { resolveFourRules, type FourRuleOptions, type FourRulesInput } from './four-rules.js';

export interface FourState {
  readonly rules: FourRuleOptions;
  readonly position: FourPosition;
  readonly history: FourHistory;
}

/** R10.9's setup: `rules` holds `players: 4` (and `teams: 2` for teams); player 0 moves first unless told. */
export interface FourGameSetup {
  readonly rules: FourRulesInput;
  readonly first?: Seat;
}

/** The start of a four-player game (R10.3). Bad options or a bad first player throw (trusted input). */
export function newFourGame(setup: FourGameSetup): FourState {
  const first = setup.first ?? 0;
  if (first !== 0 && first !== 1 && first !== 2 && first !== 3) throw new RangeError('first must be 0 to 3');
  return fromPosition(resolveFourRules(setup.rules), fourStartPosition(first));
}

/** A four-player game from any valid running position, for studies and tests; R4.5 counts from here. */
export function fourStateFromPosition(position: FourPosition, rules: FourRulesInput): FourState {
  const checked = validateFourPosition(position);
  if (!checked.ok) throw new RangeError(checked.message);
  return fromPosition(resolveFourRules(rules), checked.position);
}

function fromPosition(rules: FourRuleOptions, position: FourPosition): FourState {
  return { rules, position, history: FourHistory.start(position.squares, position.captured, position.toMove) };
}
