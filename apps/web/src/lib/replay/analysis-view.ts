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

/**
 * The moves that changed the game most: the mistakes and blunders, the `max`
 * that lost most, in the order played. A move's accuracy falls with the
 * larger of the chance and the points it lost, as its label is judged.
 */
export function keyMoments(plies: readonly PlyAnalysis[], max = 5): PlyAnalysis[] {
  return plies
    .filter((p) => p.label === 'mistake' || p.label === 'blunder')
    .sort((a, b) => a.accuracy - b.accuracy)
    .slice(0, max)
    .sort((a, b) => a.ply - b.ply);
}

/** A share 0–1 as a whole percentage, at least 1 when it is not nothing: "lost 0 %" would read as no loss. */
export function percentOf(share: number): number {
  const rounded = Math.round(100 * share);
  return share > 0 && rounded === 0 ? 1 : rounded;
}

/** What best play is proved to give, as a message key and the points it names; null when nothing was proved. */
export interface BestPlayVerdict {
  readonly key:
    | 'analysis.bestPlay.wins'
    | 'analysis.bestPlay.winsAtLeast'
    | 'analysis.bestPlay.draw'
    | 'analysis.bestPlay.loses'
    | 'analysis.bestPlay.losesAtLeast'
    | 'analysis.bestPlay.notLosing'
    | 'analysis.bestPlay.notWinning';
  readonly points: number;
}

/** The endgame proof of a ply, from its mover's side, in words a reader can take in. */
export function bestPlayVerdict(p: PlyAnalysis): BestPlayVerdict | null {
  const proved = p.bestPlay;
  if (!proved) return null;
  const { lower, upper } = proved;
  if (lower !== null && lower === upper) {
    if (lower > 0) return { key: 'analysis.bestPlay.wins', points: lower };
    if (lower < 0) return { key: 'analysis.bestPlay.loses', points: -lower };
    return { key: 'analysis.bestPlay.draw', points: 0 };
  }
  if (lower !== null && lower > 0) return { key: 'analysis.bestPlay.winsAtLeast', points: lower };
  if (upper !== null && upper < 0) return { key: 'analysis.bestPlay.losesAtLeast', points: -upper };
  if (lower === 0) return { key: 'analysis.bestPlay.notLosing', points: 0 };
  if (upper === 0) return { key: 'analysis.bestPlay.notWinning', points: 0 };
  return null;
}
