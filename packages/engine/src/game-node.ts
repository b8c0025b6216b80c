// The search's own copy of a ply (R3, R4.1–R4.4, R5), reduced to what the
// rest of the game depends on.
//
// Apart from repetition (R4.5) and the ply limit (R4.4), the rest of a game
// depends only on the board, the quan pieces and the mover. Captured stocks
// and debts matter to R4.3 only through their effect on scores, and that
// effect does not depend on how they are split:
// - a refill places min(5, all captured dân) stones, and all captured dân are
//   the dân in play less those on the board, so the count follows from the
//   board;
// - paying `own` from one's stock and borrowing `b` from the opponent's lowers
//   the refiller's R5.2 score by own + b (stock −own, debt +b) and leaves the
//   opponent's unchanged (stock −b, opponent's debt +b).
// So a node keeps the board, the quan pieces and one number for everything
// banked: the difference of the two players' scores without the board.
// The position's R5 score difference is that plus the two rows; the
// mandarin squares' half-shares cancel out.
//
// `@oanquan/rules` stays the referee: its `playFast` is exact but keeps the
// full R8 position and the repetition log, which a search of millions of
// nodes does not need. A property test checks this copy against it.

import type { Direction, Player, Position, RuleOptions, State } from '@oanquan/rules';

export interface GameNode {
  /** Dân per square, R8's `squares`. */
  readonly squares: number[];
  /** Quan pieces on the board: bit 0 for square 0, bit 1 for square 6. */
  readonly quan: number;
  /** Player 0's banked points less player 1's: captures, quan pieces, refills paid and debts (R5.2 without the board). */
  readonly banked: number;
  /** Captured dân of both players together: what a refill can draw on. */
  readonly stock: number;
  readonly toMove: Player;
  readonly ply: number;
  /** True once R4.2, R4.3 or R4.4 ended the game (R4.5 is the search's business). */
  readonly ended: boolean;
}

/** The rule options a node needs, resolved once per search. */
export interface NodeRules {
  readonly quanValue: number;
  readonly quanNon: number;
  readonly emptyQuanIsGap: boolean;
  readonly endOnPieces: boolean;
  readonly skipOrigin: boolean;
  readonly plyLimit: number;
}

export function nodeRules(rules: RuleOptions): NodeRules {
  return {
    quanValue: rules.quanValue,
    quanNon: rules.quanNon,
    emptyQuanIsGap: rules.emptyQuanIsGap,
    endOnPieces: rules.endWhen === 'quan-pieces-captured',
    skipOrigin: rules.skipOrigin,
    plyLimit: rules.plyLimit,
  };
}

export function nodeOf(state: State): GameNode {
  return nodeOfPosition(state.position, state.rules.quanValue);
}

export function nodeOfPosition(position: Position, quanValue: number): GameNode {
  const [c0, c1] = position.captured;
  const [d0, d1] = position.debt;
  const banked = c0.dan + quanValue * c0.quan - d0 + d1 - (c1.dan + quanValue * c1.quan - d1 + d0);
  return {
    squares: [...position.squares],
    quan: (position.quan[0] ? 1 : 0) | (position.quan[1] ? 2 : 0),
    banked,
    stock: c0.dan + c1.dan,
    toMove: position.toMove,
    ply: position.ply,
    ended: position.status !== 'playing',
  };
}

/** R5.2: player 0's score less player 1's if the game ended now. */
export function scoreMargin(node: GameNode): number {
  const s = node.squares;
  return node.banked + s[1]! + s[2]! + s[3]! + s[4]! + s[5]! - s[7]! - s[8]! - s[9]! - s[10]! - s[11]!;
}

/** The mover's non-empty squares as a bit mask, bit k−1 for their k-th square. */
export function moveMask(node: GameNode): number {
  const s = node.squares;
  const first = 6 * node.toMove + 1;
  return (
    (s[first] !== 0 ? 1 : 0) |
    (s[first + 1] !== 0 ? 2 : 0) |
    (s[first + 2] !== 0 ? 4 : 0) |
    (s[first + 3] !== 0 ? 8 : 0) |
    (s[first + 4] !== 0 ? 16 : 0)
  );
}

const NEXT_PLUS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0];
const NEXT_MINUS = [11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const QUAN_BIT = [1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0];

/** R3.7: far above the most stones a turn can sow; tripping it is a bug. */
const STONE_GUARD = 1000;

/** One ply from a legal move (R3, then R4.1–R4.4), as `rules.playFast` plays it. */
export function playNode(rules: NodeRules, node: GameNode, origin: number, dir: Direction): GameNode {
  const squares = node.squares.slice();
  const next = dir === 1 ? NEXT_PLUS : NEXT_MINUS;
  let quan = node.quan;
  let hand = squares[origin]!;
  let from = origin;
  let at = origin;
  let stones = 0;
  squares[origin] = 0;

  let gap: number;
  let captures = true;
  for (;;) {
    stones += hand;
    if (stones > STONE_GUARD) throw new Error('R3.7: the turn does not end');
    while (hand > 0) {
      at = next[at]!;
      if (rules.skipOrigin && at === from) continue;
      squares[at]!++;
      hand--;
    }
    gap = next[at]!;
    const bit = QUAN_BIT[gap]!;
    if (bit !== 0) {
      if (!rules.emptyQuanIsGap || squares[gap] !== 0 || (quan & bit) !== 0) captures = false;
      break;
    }
    if (squares[gap] === 0) break;
    hand = squares[gap]!;
    squares[gap] = 0;
    from = gap;
    at = gap;
  }

  let gained = 0;
  let takenDan = 0;
  if (captures) {
    let target = next[gap]!;
    for (;;) {
      const bit = QUAN_BIT[target]!;
      const hasQuan = (quan & bit) !== 0;
      const held = squares[target]!;
      if (held === 0 && !hasQuan) break;
      if (hasQuan && held < rules.quanNon) break;
      squares[target] = 0;
      takenDan += held;
      gained += held;
      if (hasQuan) {
        quan &= ~bit;
        gained += rules.quanValue;
      }
      const after = next[target]!;
      if (squares[after] !== 0 || (quan & QUAN_BIT[after]!) !== 0) break;
      target = next[after]!;
    }
  }

  const mover = node.toMove;
  let banked = mover === 0 ? node.banked + gained : node.banked - gained;
  let stock = node.stock + takenDan;
  const toMove: Player = mover === 0 ? 1 : 0;
  const ply = node.ply + 1;
  let ended = false;

  if (quan === 0 && (rules.endOnPieces || (squares[0] === 0 && squares[6] === 0))) {
    ended = true;
  } else {
    const first = 6 * toMove + 1;
    if (
      squares[first] === 0 &&
      squares[first + 1] === 0 &&
      squares[first + 2] === 0 &&
      squares[first + 3] === 0 &&
      squares[first + 4] === 0
    ) {
      const paid = Math.min(5, stock);
      if (paid === 0) {
        ended = true;
      } else {
        for (let k = 0; k < paid; k++) squares[first + k] = 1;
        stock -= paid;
        banked = toMove === 0 ? banked - paid : banked + paid;
      }
    }
    if (!ended && ply >= rules.plyLimit) ended = true;
  }
  return { squares, quan, banked, stock, toMove, ply, ended };
}
