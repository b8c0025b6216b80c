import { PRESETS, type Move } from '@oanquan/rules';
import pg from 'pg';
import { expect } from 'vitest';
import { newGuest, newRoom, scriptedGame } from './live.js';
import { ReconnectingPlayer } from './reconnecting-player.js';

/** A game played through the proxy: two players and a spectator, each on whichever node the proxy chose. */
export interface ProxiedGame {
  matchId: string;
  players: [ReconnectingPlayer, ReconnectingPlayer];
  spectator: ReconnectingPlayer;
}

/** What the players of the games touched by a fault saw. */
export interface FaultSeen {
  clients: number;
  /** Clients whose connection was cut after the fault began. */
  cut: number;
  games: number;
  offlineMs: number;
  /** The longest wait between two acknowledged moves of a touched game before the fault, and across it. */
  usualPauseMs: number;
  faultPauseMs: number;
}

export const proxiedScript: Move[] = scriptedGame(PRESETS.classic, 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const watchers = (game: ProxiedGame) => [...game.players, game.spectator];

/**
 * Games whose opener is played, every client connected through the proxy at
 * `url` one after another (round robin spreads them); every client is added
 * to `everyone`, for the caller to close.
 */
export async function openProxiedGames(url: string, count: number, everyone: ReconnectingPlayer[]): Promise<ProxiedGame[]> {
  const setups = [];
  for (let i = 0; i < count; i++) {
    const [alice, bob, carol] = [await newGuest(url), await newGuest(url), await newGuest(url)];
    setups.push({ room: await newRoom(url, alice.token), tokens: [alice.token, bob.token, carol.token] });
  }
  const games: ProxiedGame[] = [];
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
export async function playThrough(games: ProxiedGame[], fault: () => Promise<void>, { timeoutMs = 90_000, thinkMs = 40 } = {}): Promise<FaultSeen> {
  // When each client was done (its game ended and its moves answered): a connection the fault cuts after that is not waited for.
  const doneAt = new Map<ReconnectingPlayer, number>();
  const done = (client: ReconnectingPlayer, playing: Promise<void>) => playing.then(() => void doneAt.set(client, Date.now()));
  const finished = games.map((game) =>
    Promise.all([...game.players.map((p) => done(p, p.playOut(proxiedScript, timeoutMs, thinkMs))), done(game.spectator, game.spectator.playOut(proxiedScript, timeoutMs))]),
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
    for (const c of games.flatMap(watchers)) {
      console.log(`seat ${c.seat}: connected ${c.socket.connected}, ${JSON.stringify(c.known)}, cut at ${c.disconnects.map((t) => t - faultAt)} ms, back at ${c.reconnects.map((t) => t - faultAt)} ms`);
    }
    throw error;
  });
  const clients = games.flatMap(watchers);
  const cutAt = (client: ReconnectingPlayer) => client.disconnects.find((at) => at >= faultAt && at <= doneAt.get(client)!);
  const cut = clients.filter((client) => cutAt(client) !== undefined);
  // Without a cut connection, every game is touched (a Redis or database fault reaches them all).
  const hit = cut.length ? games.filter((game) => watchers(game).some((client) => cut.includes(client))) : games;
  // A client cut before it was done saw the rest of its game after a reconnection, so it has one.
  const offline = cut.map((client) => client.reconnects.find((at) => at >= cutAt(client)!)! - faultAt);
  const pauses = (game: ProxiedGame, after: boolean) => {
    const times = game.players.flatMap((p) => p.acked.map((a) => a.at)).sort((x, y) => x - y);
    return Math.max(0, ...times.slice(1).map((at, i) => ((at >= faultAt) === after ? at - times[i]! : 0)));
  };
  return {
    clients: clients.length,
    cut: cut.length,
    games: hit.length,
    offlineMs: Math.max(0, ...offline),
    usualPauseMs: Math.max(...hit.map((game) => pauses(game, false))),
    faultPauseMs: Math.max(...hit.map((game) => pauses(game, true))),
  };
}

/**
 * Every acknowledged move is in the record exactly once, the record is the
 * whole scripted game, its events are versions 1..n with none missing, and
 * every client saw the end. Answers how many acknowledged moves were lost.
 */
export async function expectWholeRecords(databaseUrl: string, games: ProxiedGame[]): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let lost = 0;
  try {
    for (const game of games) {
      const rows = (await client.query<{ ply: number; move_id: string; square: number; dir: number }>('SELECT ply, move_id, square, dir FROM move WHERE match_id = $1 ORDER BY ply', [game.matchId])).rows;
      const acked = game.players.flatMap((p) => p.acked.map((a) => a.moveId));
      lost += acked.filter((moveId) => !rows.some((row) => row.move_id === moveId)).length;
      expect(acked.sort()).toEqual(rows.map((row) => row.move_id).sort());
      expect(rows.map((row) => row.ply)).toEqual(proxiedScript.map((_, i) => i + 1));
      expect(rows.map((row) => ({ square: row.square, dir: row.dir }))).toEqual(proxiedScript.map((m) => ({ square: m.square, dir: m.dir })));
      const match = await client.query<{ status: string; version: number }>('SELECT status, version FROM match WHERE id = $1', [game.matchId]);
      expect(match.rows[0]?.status).toBe('ended');
      const versions = await client.query<{ version: number }>('SELECT version FROM match_event WHERE match_id = $1 ORDER BY version', [game.matchId]);
      expect(versions.rows.map((row) => row.version)).toEqual(Array.from({ length: match.rows[0]!.version }, (_, i) => i + 1));
      for (const watcher of watchers(game)) {
        expect(watcher.known.status).toBe('ended');
        expect(watcher.known.version).toBe(match.rows[0]!.version);
      }
    }
  } finally {
    await client.end();
  }
  return lost;
}

/**
 * Moves committed whose answer the connection took with it: received by the
 * server (its `created_at`, when the move arrived) before the client saw the
 * connection go. A move resent after the reconnection arrived later, so it
 * does not count.
 */
export async function committedButCutOff(databaseUrl: string, games: ProxiedGame[]): Promise<number> {
  const cut = games.flatMap((game) => game.players.flatMap((player) => player.cutOffMoves));
  if (cut.length === 0) return 0;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = (await client.query<{ move_id: string; created_at: Date }>('SELECT move_id, created_at FROM move WHERE move_id = ANY($1::text[])', [cut.map((c) => c.moveId)])).rows;
    return cut.filter((c) => rows.some((row) => row.move_id === c.moveId && row.created_at.getTime() < c.at)).length;
  } finally {
    await client.end();
  }
}
