import type { Seat } from '@oanquan/protocol';

/** Where each square sits on screen for a viewer whose row is at the bottom (R1.2, turned half a circle for seat 1). */
export interface BoardLayout {
  readonly left: number;
  readonly right: number;
  /** Left to right. */
  readonly top: readonly number[];
  /** Left to right: the bottom player's squares 1–5 counted from their own left (R1.4). */
  readonly bottom: readonly number[];
}

export function boardLayout(bottom: Seat): BoardLayout {
  const own = 6 * bottom;
  const other = 6 * (1 - bottom);
  return {
    left: own,
    right: other,
    top: [5, 4, 3, 2, 1].map((k) => other + k),
    bottom: [1, 2, 3, 4, 5].map((k) => own + k),
  };
}

/** The square's number from its owner's left (R1.4), or null for a mandarin square. */
export function squareNumber(square: number): number | null {
  return square % 6 === 0 ? null : square % 6;
}

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/**
 * Where the i-th dân lies in a square, as percentages of its box. Positions
 * do not depend on how many stones there are, so a dropped stone lands
 * without the others moving. Past the spiral's edge stones pile on top.
 */
export function stoneSpot(i: number, tall: boolean): { x: number; y: number } {
  const ring = Math.min(i, 10);
  const radius = 0.12 * Math.sqrt(ring + 0.35);
  const wobble = ((i * 7919) % 13) / 13 - 0.5;
  const angle = i * GOLDEN_ANGLE + wobble * 0.6;
  const spread = i > 10 ? 0.6 + 0.4 * (((i * 104729) % 17) / 17) : 1;
  const x = 50 + 100 * radius * spread * Math.cos(angle);
  const y = 50 + 100 * radius * spread * Math.sin(angle) * (tall ? 0.5 : 0.82);
  return { x, y: tall ? y + 10 : y };
}

/** At most this many dân are drawn in one square; the number beside them is always exact. */
export const MAX_DRAWN = 22;
