// R5 Scoring: what each player collects when the game ends, and who wins.

import type { RuleOptions } from './rule-options.js';
import { winnerOf, type CapturedStock, type EndReason, type GameResult, type Position } from './position.js';

/**
 * R5.1–R5.2 for the board as it stands. "Split evenly; an odd one counts for
 * nobody" is read over both mandarin squares together: R5.2 adds "half of the
 * mandarin squares' dân", one half of one sum, so at most one dân is lost.
 */
export function scoreOf(
  squares: readonly number[],
  captured: readonly [CapturedStock, CapturedStock],
  debt: readonly [number, number],
  quanValue: number,
): [number, number] {
  const s = squares;
  const half = Math.floor((s[0]! + s[6]!) / 2);
  const row0 = s[1]! + s[2]! + s[3]! + s[4]! + s[5]!;
  const row1 = s[7]! + s[8]! + s[9]! + s[10]! + s[11]!;
  const [c0, c1] = captured;
  const [d0, d1] = debt;
  return [
    c0.dan + quanValue * c0.quan + row0 + half - d0 + d1,
    c1.dan + quanValue * c1.quan + row1 + half - d1 + d0,
  ];
}

/** R5 scores of a position as if the game ended now. */
export function scorePosition(position: Position, rules: Pick<RuleOptions, 'quanValue'>): [number, number] {
  return scoreOf(position.squares, position.captured, position.debt, rules.quanValue);
}

export function resultOf(
  squares: readonly number[],
  captured: readonly [CapturedStock, CapturedStock],
  debt: readonly [number, number],
  quanValue: number,
  reason: EndReason,
): GameResult {
  const score = scoreOf(squares, captured, debt, quanValue);
  return { reason, score, winner: winnerOf(score[0], score[1]) };
}
