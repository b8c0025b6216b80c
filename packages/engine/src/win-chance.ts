// The chance that the mover wins, from the engine's value (an expected final
// margin in points): a logistic curve, 1 / (1 + e^(−k·value)). k was fitted
// by maximum likelihood on self-play games (bench/fit-win-chance.ts; the
// README records the run); a draw counts as half a win.

export const WIN_CHANCE_SCALE = 0.1367;

export function winChance(value: number, scale = WIN_CHANCE_SCALE): number {
  return 1 / (1 + Math.exp(-scale * value));
}
