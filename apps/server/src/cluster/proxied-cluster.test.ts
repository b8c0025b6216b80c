import { PRESETS, type Move } from '@oanquan/rules';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxiedCluster } from '../testing/cluster.js';
import { postgresAvailable } from '../testing/databases.js';
import { newGuest, newRoom, scriptedGame } from '../testing/live.js';
import { ReconnectingPlayer } from '../testing/reconnecting-player.js';

interface Game {
  matchId: string;
  players: [ReconnectingPlayer, ReconnectingPlayer];
  spectator: ReconnectingPlayer;
}

const script: Move[] = scriptedGame(PRESETS.classic, 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  /** Games whose opener is played, every client connected through the proxy one after another (round robin spreads them). */
  async function openGames(count: number): Promise<Game[]> {
    const url = cluster.proxy.url;
    const setups = [];
    for (let i = 0; i < count; i++) {
      const [alice, bob, carol] = [await newGuest(url), await newGuest(url), await newGuest(url)];
      setups.push({ room: await newRoom(url, alice.token), tokens: [alice.token, bob.token, carol.token] });
    }
    const games: Game[] = [];
    for (const { room, tokens } of setups) {
      const clients = [];
      for (const token of tokens) clients.push(await ReconnectingPlayer.connect(url, token));
      everyone.push(...clients);
      for (const client of clients) await client.join(room.code);
      const [a, b, spectator] = clients as [ReconnectingPlayer, ReconnectingPlayer, ReconnectingPlayer];
      await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
      const started = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
      if (!started?.ok) throw new Error(`opener: ${JSON.stringify(started)}`);
      games.push({ matchId: room.matchId, players: [a, b], spectator });
    }
    return games;
  }

  /** Plays the games out around `fault`, once every game is a few moves in; returns what the players saw. */
  async function playThrough(games: Game[], fault: () => Promise<void>) {
    const finished = games.map((game) =>
      Promise.all([...game.players.map((p) => p.playOut(script, 90_000, 40)), game.spectator.playOut(script, 90_000)]),
    );
    const deadline = Date.now() + 30_000;
    while (games.some((game) => game.players[0].known.ply < 6)) {
      if (Date.now() > deadline) throw new Error('the games did not get going');
      await sleep(20);
    }
    const faultAt = Date.now();
    await fault();
    await Promise.all(finished).catch((error: unknown) => {
      // Where each client stood, to tell a lost event from a lost connection.
      for (const c of games.flatMap((g) => [...g.players, g.spectator])) {
        console.log(`seat ${c.seat}: connected ${c.socket.connected}, ${JSON.stringify(c.known)}, cut at ${c.disconnects.map((t) => t - faultAt)} ms, back at ${c.reconnects.map((t) => t - faultAt)} ms`);
      }
      throw error;
    });
    const clients = games.flatMap((game) => [...game.players, game.spectator]);
    const cut = clients.filter((client) => client.disconnects.some((at) => at >= faultAt));
    const hit = games.filter((game) => [...game.players, game.spectator].some((client) => cut.includes(client)));
    const offline = cut.map((client) => (client.reconnects.find((at) => at >= faultAt) ?? Infinity) - faultAt);
    // How long play stopped: the longest wait between two acknowledged moves of a touched game, before the fault and across it.
    const pauses = (game: Game, after: boolean) => {
      const times = game.players.flatMap((p) => p.acked.map((a) => a.at)).sort((x, y) => x - y);
      return Math.max(0, ...times.slice(1).map((at, i) => ((at >= faultAt) === after ? at - times[i]! : 0)));
    };
    return {
      clients: clients.length,
      cut: cut.length,
      games: hit.length,
      offlineMs: Math.max(...offline),
      usualPauseMs: Math.max(...hit.map((game) => pauses(game, false))),
      faultPauseMs: Math.max(...hit.map((game) => pauses(game, true))),
    };
  }

  /** Every acknowledged move is in the record exactly once, the record is the whole scripted game, and everyone saw the end. */
  async function expectWholeRecords(games: Game[]): Promise<number> {
    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    let lost = 0;
    try {
      for (const game of games) {
        const rows = (await client.query<{ ply: number; move_id: string; square: number; dir: number }>('SELECT ply, move_id, square, dir FROM move WHERE match_id = $1 ORDER BY ply', [game.matchId])).rows;
        const acked = game.players.flatMap((p) => p.acked.map((a) => a.moveId));
        lost += acked.filter((moveId) => !rows.some((row) => row.move_id === moveId)).length;
        expect(acked.sort()).toEqual(rows.map((row) => row.move_id).sort());
        expect(rows.map((row) => row.ply)).toEqual(script.map((_, i) => i + 1));
        expect(rows.map((row) => ({ square: row.square, dir: row.dir }))).toEqual(script.map((m) => ({ square: m.square, dir: m.dir })));
        const match = await client.query('SELECT status FROM match WHERE id = $1', [game.matchId]);
        expect(match.rows[0]).toEqual({ status: 'ended' });
        for (const watcher of [...game.players, game.spectator]) expect(watcher.known.status).toBe('ended');
      }
    } finally {
      await client.end();
    }
    return lost;
  }

  it('plays games through the proxy with clients on every node, and a kill -9 of a node mid-game loses nothing', async () => {
    const games = await openGames(3);
    const [victim] = cluster.servers;
    const seen = await playThrough(games, async () => {
      victim.child.kill('SIGKILL');
      await victim.exited;
    });
    const lost = await expectWholeRecords(games);
    console.log(`kill -9 of a node: ${seen.cut} of ${seen.clients} clients cut off, in ${seen.games} of ${games.length} games; reconnected within ${seen.offlineMs} ms of the fault; longest pause between moves ${seen.faultPauseMs} ms (${seen.usualPauseMs} ms before the fault); moves lost: ${lost}`);
    // The clients were spread: the killed node held some of them, not all.
    expect(seen.cut).toBeGreaterThan(0);
    expect(seen.cut).toBeLessThan(seen.clients);
    expect(lost).toBe(0);
  }, 180_000);

  it('drains a node on SIGTERM: its clients move to another node and the games go on', async () => {
    const games = await openGames(3);
    const leaving = cluster.servers[1];
    const seen = await playThrough(games, async () => {
      leaving.child.kill('SIGTERM');
      expect(await leaving.exited).toBe(0);
    });
    const lost = await expectWholeRecords(games);
    console.log(`SIGTERM of a node: ${seen.cut} of ${seen.clients} clients asked to reconnect, in ${seen.games} of ${games.length} games; reconnected within ${seen.offlineMs} ms of the fault; longest pause between moves ${seen.faultPauseMs} ms (${seen.usualPauseMs} ms before the fault); moves lost: ${lost}`);
    expect(seen.cut).toBeGreaterThan(0);
    expect(seen.cut).toBeLessThan(seen.clients);
    expect(lost).toBe(0);
    // Drained, not cut: the proxy was not sending it new clients when they left.
    expect(leaving.output()).not.toMatch(/"level":50/);
  }, 180_000);
});
