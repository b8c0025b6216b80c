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

/** One player's R5.2 score, term by term. */
export interface ScoreBreakdown {
  /** Dân this player captured during play. */
  readonly capturedDan: number;
  /** Quan pieces this player captured, and what they are worth (R2.2). */
  readonly quanPieces: number;
  readonly quanPoints: number;
  /** R5.1: dân left on this player's own citizen squares. */
  readonly swept: number;
  /** R5.1: this player's half of the dân left in the mandarin squares. */
  readonly mandarinShare: number;
  /** R4.3: what this player borrowed (subtracted) and what the opponent borrowed from them (added). */
  readonly ownDebt: number;
  readonly opponentDebt: number;
  readonly total: number;
}

/**
 * R5.1–R5.2 split into the terms a player can check, for each player; the
 * totals are `scoreOf`'s. The dân left on the mandarin squares that nobody
 * gets (an odd one) is `unclaimed`.
 */
export function scoreBreakdown(
  position: Pick<Position, 'squares' | 'captured' | 'debt'>,
  rules: Pick<RuleOptions, 'quanValue'>,
): { players: [ScoreBreakdown, ScoreBreakdown]; unclaimed: number } {
  const { squares: s, captured, debt } = position;
  const mandarinDan = s[0]! + s[6]!;
  const half = Math.floor(mandarinDan / 2);
  const rows = [s[1]! + s[2]! + s[3]! + s[4]! + s[5]!, s[7]! + s[8]! + s[9]! + s[10]! + s[11]!] as const;
  const totals = scoreOf(s, captured, debt, rules.quanValue);
  const of = (p: 0 | 1): ScoreBreakdown => ({
    capturedDan: captured[p].dan,
    quanPieces: captured[p].quan,
    quanPoints: rules.quanValue * captured[p].quan,
    swept: rows[p],
    mandarinShare: half,
    ownDebt: debt[p],
    opponentDebt: debt[1 - p]!,
    total: totals[p],
  });
  return { players: [of(0), of(1)], unclaimed: mandarinDan - 2 * half };
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
