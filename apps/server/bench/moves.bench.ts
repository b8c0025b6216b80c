/**
 * Move latency through the whole stack: a real socket.io-client sends a
 * move, the server checks it, commits it and broadcasts it, and the ack
 * comes back. Plays scripted games on each database and prints percentiles.
 */
import { PRESETS } from '@oanquan/rules';
import { engines } from '../src/testing/databases.js';
import { openedGame, scriptedGame, startApp } from '../src/testing/live.js';

const GAMES = 8;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

for (const engine of engines) {
  // Moves back to back, faster than a person may send them: the bench measures the move path, not the rate limit.
  const { url, app } = await startApp(engine, { socketLimits: { rateBurst: 1000, ratePerSecond: 1000 } });
  const latencies: number[] = [];
  const started = performance.now();
  for (let game = 0; game < GAMES; game++) {
    const { room, a, b, version: openedAt } = await openedGame([url, url]);
    let version = openedAt;
    for (const [i, move] of scriptedGame(PRESETS.classic, 0, game + 1).entries()) {
      const t0 = performance.now();
      const ack = await (i % 2 === 0 ? a : b).request('move', { matchId: room.matchId, moveId: `m${i}`, version, ...move });
      latencies.push(performance.now() - t0);
      if (!ack.ok) throw new Error(ack.code);
      version = ack.version;
    }
    a.close();
    b.close();
  }
  const seconds = (performance.now() - started) / 1000;
  await app.close();
  latencies.sort((x, y) => x - y);
  const ms = (x: number) => x.toFixed(2);
  console.log(
    `moves on ${engine}: ${latencies.length} in ${GAMES} games; ack latency p50 ${ms(percentile(latencies, 50))} ms, ` +
      `p95 ${ms(percentile(latencies, 95))} ms, p99 ${ms(percentile(latencies, 99))} ms; ${(latencies.length / seconds).toFixed(0)} moves/s sequential`,
  );
}
