// R3–R5 read a second time, deliberately plainly, straight from rules.md and
// without the speed tricks of the package (no packed numbers, no shared
// structures, repetition by full JSON keys). Property tests play random
// games with both and require the same position after every ply. Not part
// of the package (excluded from the build).

import type { Player } from '../board.js';
import type { Move } from '../moves.js';
import type { EndReason, GameResult, Position } from '../position.js';
import type { RuleOptions } from '../rule-options.js';

export interface ModelGame {
  position: Position;
  seen: Map<string, number>;
}

type Mutable = {
  squares: number[];
  quan: [boolean, boolean];
  captured: [{ dan: number; quan: number }, { dan: number; quan: number }];
  debt: [number, number];
  toMove: Player;
  ply: number;
};

const stateKey = (p: Pick<Position, 'squares' | 'quan' | 'captured' | 'debt' | 'toMove'>) =>
  JSON.stringify([p.squares, p.quan, p.captured, p.debt, p.toMove]);

export function modelStart(position: Position): ModelGame {
  return { position, seen: new Map([[stateKey(position), 1]]) };
}

/** R5 straight from the text. */
export function modelScore(position: Position, rules: RuleOptions): [number, number] {
  const s = position.squares;
  const mandarinDan = s[0]! + s[6]!;
  return [0, 1].map((p) => {
    const own = s.slice(6 * p + 1, 6 * p + 6).reduce((a, b) => a + b, 0);
    const stock = position.captured[p]!;
    return (
      stock.dan +
      rules.quanValue * stock.quan +
      own +
      Math.floor(mandarinDan / 2) -
      position.debt[p]! +
      position.debt[1 - p]!
    );
  }) as [number, number];
}

/** Plays a legal move. */
export function modelPlay(game: ModelGame, move: Move, rules: RuleOptions): ModelGame {
  const p = game.position;
  const n: Mutable = {
    squares: [...p.squares],
    quan: [p.quan[0], p.quan[1]],
    captured: [{ ...p.captured[0] }, { ...p.captured[1] }],
    debt: [p.debt[0], p.debt[1]],
    toMove: p.toMove,
    ply: p.ply,
  };
  const me = n.toMove;
  modelTurn(n.squares, n.quan, n.captured[me], move, rules);

  // R4.1
  n.ply++;
  n.toMove = me === 0 ? 1 : 0;
  let reason: EndReason | null = null;
  // R4.2
  const quanGone = !n.quan[0] && !n.quan[1];
  if (rules.endWhen === 'quan-pieces-captured' ? quanGone : quanGone && n.squares[0] === 0 && n.squares[6] === 0) {
    reason = 'quan-gone';
  }
  // R4.3
  if (reason === null) {
    const mover = n.toMove;
    const row = [1, 2, 3, 4, 5].map((k) => 6 * mover + k);
    if (row.every((i) => n.squares[i] === 0)) {
      const own = Math.min(5, n.captured[mover].dan);
      const borrowed = Math.min(5 - own, n.captured[1 - mover]!.dan);
      if (own + borrowed === 0) reason = 'no-refill';
      n.captured[mover].dan -= own;
      n.captured[1 - mover]!.dan -= borrowed;
      n.debt[mover] += borrowed;
      row.slice(0, own + borrowed).forEach((i) => (n.squares[i] = 1));
    }
  }
  // R4.4
  if (reason === null && n.ply >= rules.plyLimit) reason = 'ply-limit';
  // R4.5
  const seen = new Map(game.seen);
  if (reason === null) {
    const key = stateKey(n);
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count === 3) reason = 'repetition';
  }

  let result: GameResult | null = null;
  const position: Position = { ...n, status: reason === null ? 'playing' : 'ended', result: null };
  if (reason !== null) {
    const score = modelScore(position, rules);
    result = { reason, score, winner: score[0] > score[1] ? 0 : score[1] > score[0] ? 1 : null };
  }
  return { position: { ...position, result }, seen };
}

/**
 * R3 (R10.4 on the ring of 24) straight from the text, in place: the ring is
 * as long as `squares`, a mandarin square every sixth square, `quan[i]` the
 * quan piece of square 6i, `stock` the mover's captured stock.
 */
export function modelTurn(
  squares: number[],
  quan: boolean[],
  stock: { dan: number; quan: number },
  move: Move,
  rules: RuleOptions,
): void {
  const size = squares.length;
  const isMandarin = (i: number) => i % 6 === 0;
  const quanAt = (i: number) => isMandarin(i) && quan[i / 6]!;
  const isEmpty = (i: number) => squares[i] === 0 && !quanAt(i);
  const next = (i: number) => (i + move.dir + size) % size;

  // R3.2 / R3.3
  let from = move.square;
  let hand = squares[from]!;
  squares[from] = 0;
  let at = from;
  let gap: number | null = null;
  for (;;) {
    while (hand > 0) {
      at = next(at);
      if (rules.skipOrigin && at === from) continue;
      squares[at]!++;
      hand--;
    }
    const after = next(at);
    if (isMandarin(after)) {
      if (rules.emptyQuanIsGap && isEmpty(after)) gap = after;
      break;
    }
    if (squares[after]! > 0) {
      hand = squares[after]!;
      squares[after] = 0;
      from = after;
      at = after;
      continue;
    }
    gap = after;
    break;
  }
  // R3.3c / R3.4 / R3.6
  if (gap === null) return;
  let target = next(gap);
  if (isEmpty(target)) return;
  for (;;) {
    if (quanAt(target) && rules.quanNon > 0 && squares[target]! < rules.quanNon) break;
    stock.dan += squares[target]!;
    squares[target] = 0;
    if (quanAt(target)) {
      quan[target / 6] = false;
      stock.quan++;
    }
    const a = next(target);
    const b = next(a);
    if (!isEmpty(a) || isEmpty(b)) break;
    target = b;
  }
}

/** R3.1 (R10.4 with four): both ways from each non-empty square 6p + k of the mover p. */
export function modelLegalMoves(position: Pick<Position, 'squares' | 'status'> & { toMove: number }): Move[] {
  if (position.status === 'ended') return [];
  const moves: Move[] = [];
  for (let k = 1; k <= 5; k++) {
    const square = 6 * position.toMove + k;
    if (position.squares[square]! > 0) moves.push({ square, dir: 1 }, { square, dir: -1 });
  }
  return moves;
}

export const modelStartPosition = (first: Player): Position => ({
  squares: [0, 5, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5],
  quan: [true, true],
  captured: [
    { dan: 0, quan: 0 },
    { dan: 0, quan: 0 },
  ],
  debt: [0, 0],
  toMove: first,
  ply: 0,
  status: 'playing',
  result: null,
});
