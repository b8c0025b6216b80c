// How sure a measured score is: the first mover's share of the points, in
// the engine's self-play (`pnpm bench`) and in the site's rated games alike.

/**
 * Wilson's 95 % interval for a score (a share of points, a draw counting
 * half) over `games` games: unlike the normal one it stays honest at 0 or
 * 100 % and in small samples. [0, 1] when there are no games.
 */
export function scoreInterval(score: number, games: number, z = 1.96): [number, number] {
  if (games === 0) return [0, 1];
  const z2 = z * z;
  const centre = (score + z2 / (2 * games)) / (1 + z2 / games);
  const half = (z / (1 + z2 / games)) * Math.sqrt((score * (1 - score)) / games + z2 / (4 * games * games));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
