/**
 * Scores as people read them. With borrowed dân a score can be negative
 * (R5.2); a hyphen-minus beside a dash reads "73 – -3", so negatives get a
 * true minus sign and parentheses inside a pair.
 */
const MINUS = '\u2212';

export function scoreText(n: number): string {
  return n < 0 ? `${MINUS}${Math.abs(n)}` : String(n);
}

export function scorePairText(score: readonly [number, number]): string {
  const side = (n: number) => (n < 0 ? `(${scoreText(n)})` : scoreText(n));
  return `${side(score[0])} – ${side(score[1])}`;
}

/** A rating change as a signed whole number: "+12", "−9", "±0". */
export function ratingDeltaText(before: number, after: number): string {
  const delta = Math.round(after) - Math.round(before);
  if (delta === 0) return '±0';
  return delta > 0 ? `+${delta}` : scoreText(delta);
}
