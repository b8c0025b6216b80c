// A search node with the full R4.5 state, for the exact endgame solver.
//
// The middlegame search keeps one number for everything banked (see
// game-node.ts), which is exact for the scores but loses what R4.5 looks at:
// each player's captured dân and debts. An exact result must know when a
// line ends by repetition, so the solver's node adds player 0's captured dân
// and both debts; player 1's captured dân are the joint stock less player
// 0's, and the captured quan pieces only reach the result through `banked`.
// The board play itself is `playNode`'s; what it did to the stocks is
// recovered from the change in `banked` and `stock`:
//   gain (mover's view) = taken dân + quanValue · taken quan pieces + paid
//   stock change        = taken dân − paid
// where `paid` is what the next mover put on their empty row (R4.3): from
// their own captured dân first, the shortfall borrowed from the mover's and
// recorded as their debt.

import type { State } from '@oanquan/rules';
import { nodeOf, playNode, type GameNode, type NodeRules } from './game-node.js';
import { dirOfMove, squareOfMove } from './moves.js';

export interface ExactNode extends GameNode {
  /** Player 0's captured dân; player 1's are `stock − dan0`. */
  readonly dan0: number;
  readonly debt0: number;
  readonly debt1: number;
}

export function exactNodeOf(state: State): ExactNode {
  const p = state.position;
  return { ...nodeOf(state), dan0: p.captured[0].dan, debt0: p.debt[0], debt1: p.debt[1] };
}

const PIECES = [0, 1, 1, 2];

/** One ply by a move index (moves.ts) of the mover. */
export function playExact(rules: NodeRules, node: ExactNode, move: number): ExactNode {
  const mover = node.toMove;
  const child = playNode(rules, node, squareOfMove(mover, move), dirOfMove(move));
  const gain = mover === 0 ? child.banked - node.banked : node.banked - child.banked;
  const takenQuan = PIECES[node.quan]! - PIECES[child.quan]!;
  const stockChange = child.stock - node.stock;
  const takenDan = (gain - rules.quanValue * takenQuan + stockChange) / 2;
  const paid = takenDan - stockChange;
  let own0 = node.dan0;
  let own1 = node.stock - node.dan0;
  let debt0 = node.debt0;
  let debt1 = node.debt1;
  if (mover === 0) own0 += takenDan;
  else own1 += takenDan;
  if (paid > 0) {
    // The refiller is the next mover, the opponent of this one.
    if (mover === 0) {
      const own = Math.min(paid, own1);
      own1 -= own;
      own0 -= paid - own;
      debt1 += paid - own;
    } else {
      const own = Math.min(paid, own0);
      own0 -= own;
      own1 -= paid - own;
      debt0 += paid - own;
    }
  }
  return {
    squares: child.squares,
    quan: child.quan,
    banked: child.banked,
    stock: child.stock,
    toMove: child.toMove,
    ply: child.ply,
    ended: child.ended,
    dan0: own0,
    debt0,
    debt1,
  };
}

/** Dân on the board: what the endgame limit counts. */
export function boardDan(node: GameNode): number {
  let total = 0;
  for (const n of node.squares) total += n;
  return total;
}
