import { newGame, play, PRESETS, stateFromPosition, type Move, type PlyEvent, type Position, type RuleOptions, type State } from '@oanquan/rules';

/** One diagram of the rules page: a position, a move, and what the rules make of it. */
export interface RuleExample {
  readonly id: 'sowing' | 'capture' | 'chain' | 'quan-non' | 'refill' | 'end';
  /** The rule numbers of rules.md it shows. */
  readonly rules: string;
  readonly options: RuleOptions;
  readonly before: Position;
  readonly move: Move;
  readonly events: readonly PlyEvent[];
  readonly after: Position;
}

function study(squares: number[], extra: Partial<Position> = {}): Position {
  return {
    squares,
    quan: [true, true],
    captured: [
      { dan: 0, quan: 0 },
      { dan: 0, quan: 0 },
    ],
    debt: [0, 0],
    toMove: 0,
    ply: 0,
    status: 'playing',
    result: null,
    ...extra,
  };
}

function example(id: RuleExample['id'], rules: string, state: State, move: Move): RuleExample {
  const played = play(state, move);
  if (!played.ok) throw new Error(`${id}: ${played.code}`);
  return { id, rules, options: state.rules, before: state.position, move, events: played.events, after: played.state.position };
}

/**
 * The diagrams, computed by the rules package: R9's worked examples E1–E4
 * from rules.md, and two small positions of our own for the refill (R4.3)
 * and the end with its scoring (R4.2, R5), since R9 has none.
 */
export function ruleExamples(): RuleExample[] {
  return [
    example('sowing', 'R3.2, R3.3b, R3.3c · R9 E3', newGame(), { square: 2, dir: 1 }),
    example('capture', 'R3.3c · R9 E1', newGame(), { square: 1, dir: -1 }),
    example('chain', 'R3.4 · R9 E4', stateFromPosition(study([2, 0, 0, 1, 0, 0, 4, 0, 3, 0, 2, 1])), { square: 3, dir: 1 }),
    example('quan-non', 'R3.6 · R9 E2', newGame({ rules: PRESETS.vietnam }), { square: 1, dir: -1 }),
    example(
      'refill',
      'R4.3',
      stateFromPosition(study([5, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0], { captured: [{ dan: 36, quan: 0 }, { dan: 3, quan: 0 }] })),
      { square: 5, dir: -1 },
    ),
    example(
      'end',
      'R4.2, R5.1, R5.2',
      stateFromPosition(study([0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 3, 0], { quan: [false, true], captured: [{ dan: 20, quan: 0 }, { dan: 24, quan: 1 }] })),
      { square: 3, dir: 1 },
    ),
  ];
}
