// Random rule sets and random games for property tests. Not part of the
// package (excluded from the build).

import fc from 'fast-check';
import {
  PRESETS,
  RULE_LIMITS,
  legalMoves,
  newGame,
  playFast,
  resolveRules,
  type Player,
  type RuleOptions,
  type State,
} from '@oanquan/rules';

export const arbitraryRules: fc.Arbitrary<RuleOptions> = fc.oneof(
  fc.constant(PRESETS.classic),
  fc.constant(PRESETS.vietnam),
  fc
    .record({
      quanValue: fc.constantFrom(10 as const, 5 as const),
      quanNon: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: RULE_LIMITS.quanNon.max })),
      emptyQuanIsGap: fc.boolean(),
      endWhen: fc.constantFrom('quan-squares-empty' as const, 'quan-pieces-captured' as const),
      skipOrigin: fc.boolean(),
      plyLimit: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 400 })),
    })
    .map((options) => resolveRules(options)),
);

export interface RandomGame {
  readonly rules: RuleOptions;
  readonly first: Player;
  readonly choices: readonly number[];
}

export const arbitraryGame: fc.Arbitrary<RandomGame> = fc.record({
  rules: arbitraryRules,
  first: fc.constantFrom<Player>(0, 1),
  choices: fc.array(fc.nat(), { maxLength: 300 }),
});

/** Every state of a random game, from the start until it ends or the choices run out. */
export function statesOf(game: RandomGame): State[] {
  let state = newGame({ rules: game.rules, first: game.first });
  const states = [state];
  for (const choice of game.choices) {
    if (state.position.status !== 'playing') break;
    const legal = legalMoves(state);
    const next = playFast(state, legal[choice % legal.length]!);
    if (typeof next === 'string') throw new Error(`legal move refused: ${next}`);
    state = next;
    states.push(state);
  }
  return states;
}

/** The last state of a random game that is still being played. */
export function playingStateOf(game: RandomGame): State {
  const states = statesOf(game).filter((state) => state.position.status === 'playing');
  return states[states.length - 1]!;
}
