import type { MoveLabel, PlyAnalysis, Seat } from '@oanquan/protocol';

/** The labels a reader is warned of, worst last; lichess's marks for them. */
export const FLAWS = ['inaccuracy', 'mistake', 'blunder'] as const satisfies readonly MoveLabel[];
export type Flaw = (typeof FLAWS)[number];

export const MARKS: Readonly<Record<Flaw, string>> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

export function isFlaw(label: MoveLabel): label is Flaw {
  return (FLAWS as readonly MoveLabel[]).includes(label);
}

/**
 * `first`'s chance to win, 0–100, at every position of the game: before the
 * first move, then after each move. The mover's chance after a move is their
 * chance before it less what the move lost, so the last move has a point too.
 */
export function chanceCurve(plies: readonly PlyAnalysis[], first: Seat): number[] {
  if (plies.length === 0) return [];
  const forFirst = (seat: Seat, chance: number) => 100 * (seat === first ? chance : 1 - chance);
  return [forFirst(plies[0]!.seat, plies[0]!.winChance), ...plies.map((p) => forFirst(p.seat, p.winChance - p.chanceLost))];
}

/** The moves that changed the game most: the mistakes and blunders, the biggest `max` of them, in the order played. */
export function keyMoments(plies: readonly PlyAnalysis[], max = 5): PlyAnalysis[] {
  return plies
    .filter((p) => p.label === 'mistake' || p.label === 'blunder')
    .sort((a, b) => b.chanceLost - a.chanceLost)
    .slice(0, max)
    .sort((a, b) => a.ply - b.ply);
}

/** A share 0–1 as a whole percentage, at least 1 when it is not nothing: "lost 0 %" would read as no loss. */
export function percentOf(share: number): number {
  const rounded = Math.round(100 * share);
  return share > 0 && rounded === 0 ? 1 : rounded;
}
