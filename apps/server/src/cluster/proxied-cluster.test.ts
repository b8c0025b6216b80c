import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxiedCluster } from '../testing/cluster.js';
import { postgresAvailable } from '../testing/databases.js';
import { committedButCutOff, expectWholeRecords, openProxiedGames, playThrough } from '../testing/proxied-games.js';
import type { ReconnectingPlayer } from '../testing/reconnecting-player.js';

describe.runIf(postgresAvailable)('three nodes behind HAProxy, sharing PostgreSQL and Redis', () => {
  let cluster: Awaited<ReturnType<typeof startProxiedCluster>>;
  const everyone: ReconnectingPlayer[] = [];

  beforeAll(async () => {
    cluster = await startProxiedCluster({ DRAIN_NOTICE_MS: '1000', MATCH_FEED_CHECK_MS: '500' });
  }, 180_000);
  afterAll(async () => {
    for (const client of everyone) client.close();
    await cluster?.stop();
  });

  it('plays games through the proxy with clients on every node, and a kill -9 of a node mid-game loses nothing', async () => {
    const games = await openProxiedGames(cluster.proxy.url, 3, everyone);
    const [victim] = cluster.servers;
    const seen = await playThrough(games, async () => {
      victim.child.kill('SIGKILL');
      await victim.exited;
    });
    const lost = await expectWholeRecords(cluster.databaseUrl, games);
    console.log(`kill -9 of a node: ${seen.cut} of ${seen.clients} clients cut off, in ${seen.games} of ${games.length} games; reconnected within ${seen.offlineMs} ms of the fault; longest pause between moves ${seen.faultPauseMs} ms (${seen.usualPauseMs} ms before the fault); moves lost: ${lost}`);
    // The clients were spread: the killed node held some of them, not all.
    expect(seen.cut).toBeGreaterThan(0);
    expect(seen.cut).toBeLessThan(seen.clients);
    expect(lost).toBe(0);
  }, 180_000);

  it('drains a node on SIGTERM: its clients move to another node and the games go on', async () => {
    const games = await openProxiedGames(cluster.proxy.url, 3, everyone);
    const leaving = cluster.servers[1];
    // The games outlast the drain's notice (1 s), so the node lets its sockets go with games still in play.
    const seen = await playThrough(
      games,
      async () => {
        leaving.child.kill('SIGTERM');
        expect(await leaving.exited).toBe(0);
      },
      { thinkMs: 150 },
    );
    const lost = await expectWholeRecords(cluster.databaseUrl, games);
    const unanswered = games.flatMap((game) => game.players).reduce((sum, player) => sum + player.unansweredMoves, 0);
    const committedUnanswered = await committedButCutOff(cluster.databaseUrl, games);
    console.log(`SIGTERM of a node: ${seen.cut} of ${seen.clients} clients asked to reconnect, in ${seen.games} of ${games.length} games; reconnected within ${seen.offlineMs} ms of the fault; longest pause between moves ${seen.faultPauseMs} ms (${seen.usualPauseMs} ms before the fault); moves lost: ${lost}; moves left unanswered: ${unanswered}, of them committed by the draining node: ${committedUnanswered}`);
    expect(seen.cut).toBeGreaterThan(0);
    expect(seen.cut).toBeLessThan(seen.clients);
    // Every committed move was acknowledged (expectWholeRecords): by the draining node before it let the sockets go, or, for a
    // move still on its way when they went (unanswered), by the node the client resent it to, with the same moveId.
    expect(lost).toBe(0);
    // The draining node answered every move it committed before its sockets went.
    expect(committedUnanswered).toBe(0);
    // Drained, not cut: the proxy was not sending it new clients when they left.
    expect(leaving.output()).not.toMatch(/"level":50/);
  }, 180_000);
});
