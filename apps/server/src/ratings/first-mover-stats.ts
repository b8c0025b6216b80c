import { scoreInterval } from '@oanquan/engine';
import type { Database } from '../db/database.js';

/** Width of a rating band, on the familiar Glicko scale. */
export const BAND_WIDTH = 200;

export interface FirstMoverBand {
  /** The band's lower edge: games whose two players averaged [from, from + BAND_WIDTH) before the game. */
  from: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** The first mover's points per game (a win 1, a draw ½). */
  score: number;
  /** Wilson's 95 % interval of the score. */
  interval: [number, number];
}

/**
 * The first mover's score in the site's rated games, by rating band: the
 * engine's self-play says how much moving first is worth between strong
 * players (`pnpm bench`), this says it of the players the site has, as they
 * get stronger. A band is the mean of the two ratings before the game, as
 * the game's rating change recorded them. Only rated games count (an abort
 * or an unrated ending says nothing), each game of a pairing on its own.
 */
export async function firstMoverByBand(db: Pick<Database, 'prisma'>): Promise<FirstMoverBand[]> {
  const rows = await db.prisma.$queryRaw<Array<{ band: number; games: number; wins: number; draws: number }>>`
    SELECT (floor(((rating_changes->0->>'before')::float8 + (rating_changes->1->>'before')::float8) / 2 / ${BAND_WIDTH}::int) * ${BAND_WIDTH}::int)::int AS band,
      count(*)::int AS games,
      count(*) FILTER (WHERE winner = first)::int AS wins,
      count(*) FILTER (WHERE winner IS NULL)::int AS draws
    FROM match
    WHERE rated_at IS NOT NULL AND first IS NOT NULL AND rating_changes IS NOT NULL
    GROUP BY band ORDER BY band`;
  return rows.map(({ band, games, wins, draws }) => {
    const score = (wins + draws / 2) / games;
    return { from: band, games, wins, draws, losses: games - wins - draws, score, interval: scoreInterval(score, games) };
  });
}

/** The table `pnpm stats:first-mover` prints. */
export function bandTable(bands: readonly FirstMoverBand[]): string {
  const percent = (x: number) => `${(100 * x).toFixed(0)} %`;
  const lines = [`first mover's score in rated games, by the players' mean rating before the game (95 % interval)`];
  lines.push(`  ${'band'.padEnd(11)} ${'games'.padStart(6)}   ${'W-D-L'.padEnd(12)} ${'score'.padStart(6)}  95 %`);
  for (const b of bands) {
    lines.push(
      `  ${`${b.from}–${b.from + BAND_WIDTH}`.padEnd(11)} ${String(b.games).padStart(6)}   ${`${b.wins}-${b.draws}-${b.losses}`.padEnd(12)} ` +
        `${percent(b.score).padStart(6)}  ${percent(b.interval[0])}–${percent(b.interval[1])}`,
    );
  }
  if (bands.length === 0) lines.push('  no rated games yet');
  return lines.join('\n');
}
