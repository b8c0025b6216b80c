import { PRESETS } from '@oanquan/rules';
import { privatePostgres, privateRedis, type PrivatePostgres } from '@oanquan/testkit';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { answeredBy, startProxiedCluster, untilAllAnswer } from '../testing/cluster.js';
import { postgresAvailable } from '../testing/databases.js';
import { newGuest, openedGame, scriptedGame, TestClient } from '../testing/live.js';
import { expectWholeRecords, openProxiedGames, playThrough } from '../testing/proxied-games.js';
import { resendUntilAccepted } from '../testing/resend-move.js';
import type { ReconnectingPlayer } from '../testing/reconnecting-player.js';
import { startTcpForwarder, type TcpForwarder } from '../testing/tcp-forwarder.js';
import { loggedSince, waitFor } from '../testing/wait-for.js';

/** How long Redis and PostgreSQL stay down: what the operators' runbook calls a restart. */
const outageMs = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/**
 * Redis and PostgreSQL restarts, and one node cut off from the database,
 * under the production topology: three nodes behind HAProxy, with a
 * PostgreSQL cluster and a Redis of this file's own, so stopping them
 * disturbs no other test. The third node reaches PostgreSQL through a relay
 * the test can cut, which takes that node's database away and no one else's.
 */
describe.runIf(postgresAvailable)('restarts of Redis and PostgreSQL behind HAProxy', () => {
  let database: PrivatePostgres;
  let redis: Awaited<ReturnType<typeof privateRedis>>;
  let relay: TcpForwarder;
  let cluster: Awaited<ReturnType<typeof startProxiedCluster>>;
  const everyone: Array<{ close(): void }> = [];
  const checkIntervalMs = 300;

  beforeAll(async () => {
    [database, redis] = await Promise.all([privatePostgres(), privateRedis()]);
    relay = await startTcpForwarder(new URL(database.url).host);
    const relayed = new URL(database.url);
    relayed.host = relay.address;
    cluster = await startProxiedCluster({ DRAIN_NOTICE_MS: '0', MATCH_FEED_CHECK_MS: '500' }, checkIntervalMs, {
      databaseUrl: database.url,
      redisUrl: redis.url,
      nodeEnv: (index): Record<string, string> => (index === 2 ? { DATABASE_URL: relayed.toString() } : {}),
    });
  }, 180_000);
  // A failure says what the proxy saw and how each node ended.
  beforeEach(({ onTestFailed }) =>
    onTestFailed(() => {
      console.log(cluster?.proxy.output());
      cluster?.servers.forEach((server, i) => console.log(`node${i + 1} exit ${server.child.exitCode}:\n${server.output().slice(-6000)}`));
    }),
  );
  afterAll(async () => {
    for (const client of everyone) client.close();
    await cluster?.stop();
    await relay?.close();
    await redis?.stop();
    await database?.destroy();
  });

  it('Redis stopped for 10 s: moves go on, every client ends with every version once, and broadcasts between nodes resume by themselves', async () => {
    const players: ReconnectingPlayer[] = [];
    const games = await openProxiedGames(cluster.proxy.url, 3, players);
    everyone.push(...players);
    let stoppedAt = 0;
    let restartedAt = 0;
    let outageMarks: number[] = [];
    const seen = await playThrough(games, async () => {
      outageMarks = cluster.servers.map((server) => server.output().length);
      await redis.stop();
      stoppedAt = Date.now();
      await sleep(outageMs);
      await redis.start();
      restartedAt = Date.now();
    });
    const lost = await expectWholeRecords(cluster.databaseUrl, games);
    const acked = games.flatMap((game) => game.players.flatMap((p) => p.acked.map((a) => a.at)));
    const duringOutage = acked.filter((at) => at >= stoppedAt && at < restartedAt).length;
    for (const client of players) {
      // One snapshot when it joined, then every version after it applied once, in order; the server pushed none twice.
      expect(client.adopted).toHaveLength(1);
      expect(client.applied).toEqual(range(client.adopted[0]! + 1, client.known.version));
      expect(new Set(client.pushed).size).toBe(client.pushed.length);
    }
    expect(duringOutage).toBeGreaterThan(0);
    // Redis going away in the middle of writes ends no node.
    for (const server of cluster.servers) expect(server.child.exitCode).toBeNull();
    // The players were on different nodes: while Redis was away, their moves crossed by the feed's check of the database.
    const repairedInOutage = cluster.servers.reduce((sum, server, i) => sum + (server.output().slice(outageMarks[i]).match(/message was lost/g)?.length ?? 0), 0);
    expect(repairedInOutage).toBeGreaterThan(0);

    // After the restart, a game between two nodes, each event crossing through Redis: the feed's database check repairs nothing.
    const marks = cluster.servers.map((server) => server.output().length);
    const { room, a, b, version: openedAt } = await openedGame([cluster.servers[0].url, cluster.servers[1].url]);
    everyone.push(a, b);
    const moves = scriptedGame(PRESETS.classic, 0, 11);
    const crossings: number[] = [];
    let version = openedAt;
    for (let i = 0; i < moves.length; i++) {
      const [mover, other] = i % 2 === 0 ? [a, b] : [b, a];
      const ack = await mover.request('move', { matchId: room.matchId, moveId: `r${i}`, version, ...moves[i]! });
      if (!ack.ok) throw new Error(`move ${i}: ${ack.code}`);
      const ackedAt = Date.now();
      version = ack.version;
      await other.waitForVersion(version);
      crossings.push(Date.now() - ackedAt);
    }
    // (Late repairs of the earlier games, whose last messages may have left while a node was still reconnecting, are theirs.)
    const repairs = cluster.servers.map((server, i) =>
      server.output().slice(marks[i]).split('\n').filter((line) => line.includes('message was lost') && line.includes(room.matchId)).length,
    );
    expect(repairs).toEqual([0, 0, 0]);
    for (const client of [a, b]) expect(client.events.map((e) => e.version)).toEqual(range(client.events[0]!.version, version));
    crossings.sort((x, y) => x - y);
    const forgiven = cluster.servers.reduce((sum, server) => sum + (server.output().match(/Redis went away under a request of its client/g)?.length ?? 0), 0);
    console.log(
      `Redis stopped ${outageMs} ms: ${duringOutage} moves acknowledged during the outage, ${repairedInOutage} deliveries between nodes by the feed's check meanwhile, ${seen.cut} of ${seen.clients} clients cut off; ` +
        `longest pause between moves ${seen.faultPauseMs} ms (${seen.usualPauseMs} ms before); moves lost: ${lost}; ${forgiven} rejections of the Redis client that no command held, logged; ` +
        `after the restart, ${crossings.length} moves crossed between nodes through Redis, median ${crossings[crossings.length >> 1]} ms, slowest ${crossings.at(-1)} ms`,
    );
    expect(lost).toBe(0);
  }, 180_000);

  it('one node losing its database is taken out of rotation: new connections land on the others until it is back', async () => {
    const [, , cutOff] = cluster.servers;
    const proxyLog = () => cluster.proxy.output();
    // All three in rotation to begin with (a node a busy machine made miss two checks is back by then).
    await untilAllAnswer(cluster.proxy.url, ['node1', 'node2', 'node3'], 'every node to answer through the proxy');

    const cutMark = proxyLog().length;
    await relay.cut();
    // Whatever this test leaves undone, the next one finds node3's route to the database open.
    onTestFinished(() => relay.restore());
    const cutAt = Date.now();
    // Only a line written after the cut counts: under load HAProxy may have marked a slow node down and up before.
    await waitFor('HAProxy to mark node3 down after the cut', loggedSince(proxyLog, cutMark, /Server nodes\/node3 is DOWN/));
    const downAfterMs = Date.now() - cutAt;
    // HAProxy also marks down a node too slow to answer its check: node3's own answer is what says why.
    await waitFor('node3 to answer its health check with 503 after the cut', async () => (await fetch(`${cutOff.url}/api/health`)).status === 503);
    const direct = await fetch(`${cutOff.url}/api/health`);
    expect(direct.status).toBe(503);
    expect(await direct.json()).toMatchObject({ reason: 'database' });

    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await answeredBy(cluster.proxy.url));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(answers.map((answer) => answer.node))).toEqual(new Set(['node1', 'node2']));
    // A handshake on node3 would be refused (its database is gone): every one through the proxy succeeds.
    for (let i = 0; i < 6; i++) {
      const guest = await newGuest(cluster.proxy.url);
      const client = await TestClient.connect(cluster.proxy.url, guest.token);
      expect(client.socket.connected).toBe(true);
      client.close();
    }

    const restoreMark = proxyLog().length;
    await relay.restore();
    const restoredAt = Date.now();
    await waitFor('HAProxy to mark node3 up again after the restore', loggedSince(proxyLog, restoreMark, /Server nodes\/node3 is UP/));
    const upAfterMs = Date.now() - restoredAt;
    await untilAllAnswer(cluster.proxy.url, ['node3'], 'node3 to answer through the proxy again');
    expect(cutOff.child.exitCode).toBeNull();
    console.log(`one node cut off from PostgreSQL: marked down by HAProxy ${downAfterMs} ms after the cut; 12 requests and 6 handshakes through the proxy all went to the other nodes; back in rotation ${upAfterMs} ms after the database was reachable again`);
  }, 120_000);

  it('PostgreSQL stopped for 10 s: moves refused with UNAVAILABLE, the proxy has no node to offer, then the same moves succeed once', async () => {
    const url = cluster.proxy.url;
    const { alice, room, a, b, version: openedAt } = await openedGame([url, url]);
    const watcher = await TestClient.connect(url, (await newGuest(url)).token);
    everyone.push(a, b, watcher);
    await watcher.request('room:join', { code: room.code });

    const moves = scriptedGame(PRESETS.classic, 0, 5);
    const half = Math.floor(moves.length / 2);
    let version = openedAt;
    const acked: string[] = [];
    const send = (i: number) => (i % 2 === 0 ? a : b).request('move', { matchId: room.matchId, moveId: `p${i}`, version, ...moves[i]! });
    const playMove = async (i: number) => {
      // Like a player: the move follows the event it answers.
      await (i % 2 === 0 ? a : b).waitForVersion(version);
      const ack = await send(i);
      if (!ack.ok) throw new Error(`move ${i}: ${ack.code}`);
      version = ack.version;
      acked.push(`p${i}`);
    };
    for (let i = 0; i < half; i++) await playMove(i);

    const proxyOutput = cluster.proxy.output().length;
    await database.stop();
    const stoppedAt = Date.now();
    // The mover resends the same move, as the web client does on a retryable refusal.
    const refusals = new Set<string>();
    const noServer = () => /backend 'nodes' has no server available/.test(cluster.proxy.output().slice(proxyOutput));
    let allDownAfterMs: number | undefined;
    let proxyAnswer = '';
    let handshakeRefused = false;
    while (Date.now() - stoppedAt < outageMs) {
      const ack = await send(half);
      expect(ack.ok).toBe(false);
      if (!ack.ok) refusals.add(ack.code);
      if (allDownAfterMs === undefined && noServer()) {
        allDownAfterMs = Date.now() - stoppedAt;
        // Now HAProxy itself answers, not a node: no node is offered to a request or a handshake.
        const response = await fetch(`${url}/api/health`);
        proxyAnswer = `${response.status} ${await response.text()}`;
        handshakeRefused = await TestClient.connect(url, alice.token).then(
          (client) => (client.close(), false),
          () => true,
        );
      }
      await sleep(500);
    }
    expect([...refusals]).toEqual(['UNAVAILABLE']);
    expect(allDownAfterMs).toBeDefined();
    expect(proxyAnswer).toMatch(/^503 .*No server is available/s);
    expect(handshakeRefused).toBe(true);
    const marked = cluster.proxy.output().slice(proxyOutput);
    for (const node of ['node1', 'node2', 'node3']) expect(marked).toMatch(new RegExp(`Server nodes/${node} is DOWN`));

    await database.start();
    const restartedAt = Date.now();
    const resumed = await resendUntilAccepted(() => send(half), 30_000);
    const resumedAt = resumed.at;
    version = resumed.version;
    acked.push(`p${half}`);
    // Applied once: the resend answers the earlier outcome.
    expect(await send(half)).toEqual({ ok: true, version });
    const proxyBackAfterMs = await waitFor('the proxy to route again after PostgreSQL came back', async () => (await answeredBy(url)).status === 200);
    for (let i = half + 1; i < moves.length; i++) await playMove(i);
    await Promise.all([a, b, watcher].map((client) => client.waitForVersion(version)));

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    let lost: number;
    try {
      const recorded = await client.query<{ move_id: string }>('SELECT move_id FROM move WHERE match_id = $1 ORDER BY ply', [room.matchId]);
      lost = acked.filter((moveId) => !recorded.rows.some((row) => row.move_id === moveId)).length;
      expect(recorded.rows.map((row) => row.move_id)).toEqual(acked);
      expect(acked).toHaveLength(moves.length);
      const versions = await client.query<{ version: number }>('SELECT version FROM match_event WHERE match_id = $1 ORDER BY version', [room.matchId]);
      expect(versions.rows.map((row) => row.version)).toEqual(range(1, version));
    } finally {
      await client.end();
    }
    for (const watching of [a, b, watcher]) {
      const versions = watching.events.map((e) => e.version);
      expect(versions).toEqual(range(versions[0]!, version));
    }
    for (const server of cluster.servers) expect(server.child.exitCode).toBeNull();
    console.log(
      `PostgreSQL stopped ${outageMs} ms: moves refused with ${[...refusals].join(', ')}; HAProxy had marked every node down ${allDownAfterMs} ms after the stop (checks every ${checkIntervalMs} ms, two to fall); ` +
        `play resumed ${resumedAt - restartedAt} ms after PostgreSQL was back (${resumedAt - stoppedAt} ms after the stop), the proxy routed again within ${proxyBackAfterMs} ms of the resumed move; moves lost: ${lost}`,
    );
  }, 120_000);
});
