/**
 * Move latency through the whole stack: a real socket.io-client sends a
 * move, the server checks it, commits it and broadcasts it, and the ack
 * comes back. Plays scripted games on each database and prints percentiles.
 */
import { PRESETS } from '@oanquan/rules';
import { engines } from '../src/testing/databases.js';
import { newGuest, newRoom, scriptedGame, startApp, TestClient } from '../src/testing/live.js';

const GAMES = 8;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

for (const engine of engines) {
  const { url, app } = await startApp(engine);
  const latencies: number[] = [];
  const started = performance.now();
  for (let game = 0; game < GAMES; game++) {
    const [alice, bob] = await Promise.all([newGuest(url), newGuest(url)]);
    const room = await newRoom(url, alice.token);
    const [a, b] = await Promise.all([TestClient.connect(url, alice.token), TestClient.connect(url, bob.token)]);
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const opened = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
    let version = opened.ok ? opened.version : 0;
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
