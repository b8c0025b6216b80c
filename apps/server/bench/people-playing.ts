// What the benchmarks of games against the computer share: how people's move
// acks are timed, and how a list of times is summed up.

import { PRESETS } from '@oanquan/rules';
import { openedGame, scriptedGame } from '../src/testing/live.js';

export function percentiles(values: number[]): string {
  if (values.length === 0) return 'none';
  const sorted = [...values].sort((x, y) => x - y);
  return `p50 ${quantile(sorted, 50).toFixed(1)} ms, p90 ${quantile(sorted, 90).toFixed(1)} ms, p99 ${quantile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms (${sorted.length})`;
}

/** The value at percentile `p` of values sorted ascending. */
export function quantile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * Two people playing scripted games, move after move, until `until` holds
 * once `minGames` whole games are played (0: as soon as it holds, mid-game);
 * answers each move's ack latency.
 */
export async function peoplePlaying(url: string, until: () => boolean, minGames: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let game = 0; game < minGames || !until(); game++) {
    const { room, a, b, version: openedAt } = await openedGame([url, url]);
    let version = openedAt;
    for (const [i, move] of scriptedGame(PRESETS.classic, 0, game + 1).entries()) {
      if (game >= minGames && until()) break;
      const t0 = performance.now();
      // An ack that never comes (the client's timeout) counts as that long, and ends this game.
      const ack = await (i % 2 === 0 ? a : b).request('move', { matchId: room.matchId, moveId: `m${i}`, version, ...move }).catch(() => undefined);
      latencies.push(performance.now() - t0);
      if (!ack) break;
      if (!ack.ok) throw new Error(ack.code);
      version = ack.version;
      // A person takes a moment between moves.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    a.close();
    b.close();
  }
  return latencies;
}
