// R10 read a second time, deliberately plainly, straight from rules.md and
// without the package's shared pieces (no Ring, no packed captures, no
// shared lists, repetition by full JSON keys, lenders spelled out); the turn
// itself is the two-player model's plain R3 on a ring of 24. Property
// tests play random four-player games with both and require the same
// position after every ply. Not part of the package (excluded from the build).

import type { Seat } from '../four-board.js';
import type { Four, FourPosition, FourResult } from '../four-position.js';
import type { FourRuleOptions } from '../four-rules.js';
import type { Move } from '../moves.js';
import type { EndReason } from '../position.js';
import { modelTurn } from './reference-model.js';

export { modelLegalMoves as fourModelLegalMoves } from './reference-model.js';

export interface FourModelGame {
  position: FourPosition;
  seen: Map<string, number>;
}

type Mutable = {
  squares: number[];
  quan: boolean[];
  captured: { dan: number; quan: number }[];
  debt: number[][];
  toMove: Seat;
  ply: number;
};

const stateKey = (p: Pick<FourPosition, 'squares' | 'quan' | 'captured' | 'debt' | 'toMove'>) =>
  JSON.stringify([p.squares, p.quan, p.captured, p.debt, p.toMove]);

export function fourModelStart(position: FourPosition): FourModelGame {
  return { position, seen: new Map([[stateKey(position), 1]]) };
}

/** R10.7 and R10.8 straight from the text. */
export function fourModelResult(position: Pick<FourPosition, 'squares' | 'captured' | 'debt'>, rules: FourRuleOptions, reason: EndReason): FourResult {
  const s = position.squares;
  const share = Math.floor((s[0]! + s[6]! + s[12]! + s[18]!) / 4);
  const score = [0, 1, 2, 3].map((p) => {
    const own = s.slice(6 * p + 1, 6 * p + 6).reduce((a, b) => a + b, 0);
    const owes = position.debt[p]!.reduce((a, b) => a + b, 0);
    const owed = position.debt.reduce((a, row) => a + row[p]!, 0);
    return position.captured[p]!.dan + rules.quanValue * position.captured[p]!.quan + own + share - owes + owed;
  });
  const ranking = score.map((mine) => 1 + score.filter((other) => other > mine).length);
  const best = Math.max(...score);
  const winner = score.filter((x) => x === best).length === 1 ? (score.indexOf(best) as Seat) : null;
  const result: FourResult = { reason, score: score as unknown as Four<number>, ranking: ranking as unknown as Four<number>, winner };
  if (rules.teams !== 2) return result;
  const teamScore: [number, number] = [score[0]! + score[2]!, score[1]! + score[3]!];
  const winningTeam = teamScore[0] === teamScore[1] ? null : teamScore[0] > teamScore[1] ? 0 : 1;
  return { ...result, teamScore, winningTeam };
}

/** Plays a legal move. */
export function fourModelPlay(game: FourModelGame, move: Move, rules: FourRuleOptions): FourModelGame {
  const p = game.position;
  const n: Mutable = {
    squares: [...p.squares],
    quan: [...p.quan],
    captured: p.captured.map((c) => ({ ...c })),
    debt: p.debt.map((row) => [...row]),
    toMove: p.toMove,
    ply: p.ply,
  };
  const me = n.toMove;
  // R10.4: R3 on the ring of 24, read by the two-player model's plain turn.
  modelTurn(n.squares, n.quan, n.captured[me]!, move, rules);

  // R10.5
  n.ply++;
  n.toMove = ((me + 1) % 4) as Seat;
  let reason: EndReason | null = null;
  // R10.6 end check
  const quanGone = n.quan.every((q) => !q);
  const squaresEmpty = [0, 6, 12, 18].every((i) => n.squares[i] === 0);
  if (rules.endWhen === 'quan-pieces-captured' ? quanGone : quanGone && squaresEmpty) reason = 'quan-gone';
  // R10.6 refill; R10.8 lenders with teams
  if (reason === null) {
    const mover = n.toMove;
    const row = [1, 2, 3, 4, 5].map((k) => 6 * mover + k);
    if (row.every((i) => n.squares[i] === 0)) {
      let need = 5;
      const own = Math.min(need, n.captured[mover]!.dan);
      n.captured[mover]!.dan -= own;
      need -= own;
      const lenders = rules.teams === 2 ? [mover + 2, mover + 1, mover + 3] : [mover + 1, mover + 2, mover + 3];
      for (const lender of lenders.map((q) => q % 4)) {
        const loan = Math.min(need, n.captured[lender]!.dan);
        n.captured[lender]!.dan -= loan;
        n.debt[mover]![lender]! += loan;
        need -= loan;
      }
      if (need === 5) reason = 'no-refill';
      row.slice(0, 5 - need).forEach((i) => (n.squares[i] = 1));
    }
  }
  // R4.4
  if (reason === null && n.ply >= rules.plyLimit) reason = 'ply-limit';
  // R4.5
  const seen = new Map(game.seen);
  if (reason === null) {
    const key = stateKey(n as unknown as FourPosition);
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count === 3) reason = 'repetition';
  }

  const position = { ...n, status: reason === null ? 'playing' : 'ended', result: null } as unknown as FourPosition;
  const result = reason === null ? null : fourModelResult(position, rules, reason);
  return { position: { ...position, result }, seen };
}

export const fourModelStartPosition = (first: Seat): FourPosition => ({
  squares: Array.from({ length: 24 }, (_, i) => (i % 6 === 0 ? 0 : 5)),
  quan: [true, true, true, true],
  captured: [0, 1, 2, 3].map(() => ({ dan: 0, quan: 0 })) as unknown as FourPosition['captured'],
  debt: [0, 1, 2, 3].map(() => [0, 0, 0, 0]) as unknown as FourPosition['debt'],
  toMove: first,
  ply: 0,
  status: 'playing',
  result: null,
});
