import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MatchRecord } from '@oanquan/protocol';
import { PRESETS, type Move } from '@oanquan/rules';
import { privatePostgres, startServerProcess, type ServerProcess } from '@oanquan/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { runBackupCli } from '../../testing/backup-cli.js';
import { lastingServerEnv } from '../../testing/databases.js';
import { api, openedGame, scriptedGame, TestClient } from '../../testing/live.js';

/**
 * A game in progress on `url`: `play(n)` plays its next n moves, each
 * acknowledged before the next is sent; `at()` is where it stands, and
 * `resume(url, at)` has its players carry on from there on another server.
 */
async function startGame(url: string, seed: number) {
  const game = await openedGame([url, url]);
  const moves = scriptedGame(PRESETS.classic, 0, seed);
  let clients = [game.a, game.b];
  let version = game.version;
  let played = 0;
  return {
    matchId: game.room.matchId,
    moves,
    at: () => ({ played, version }),
    async play(n: number) {
      for (const end = Math.min(played + n, moves.length); played < end; played++) {
        const ack = await clients[played % 2]!.request('move', { matchId: game.room.matchId, moveId: `m${played}`, version, ...moves[played]! });
        if (!ack.ok) throw new Error(`move ${played}: ${ack.code}`);
        version = ack.version;
      }
    },
    async resume(at: string, from: { played: number; version: number }) {
      for (const client of clients) client.close();
      clients = await Promise.all([TestClient.connect(at, game.alice.token), TestClient.connect(at, game.bob.token)]);
      ({ played, version } = from);
    },
    close() {
      for (const client of clients) client.close();
    },
  };
}

const movesOf = (record: MatchRecord) => record.moves.map(({ square, dir }) => ({ square, dir }));
const asMoves = (moves: Move[]) => moves.map(({ square, dir }) => ({ square, dir }));

/**
 * The half-way game's players are away from the backup until they come back
 * to the restarted or restored server, minutes on a busy machine: longer
 * than the default grace, after which a match both players left is ended.
 */
const serverEnv = { LOG_LEVEL: 'warn', ABANDON_GRACE_MS: '900000' };

async function stop(server: ServerProcess, signal: NodeJS.Signals = 'SIGINT') {
  server.child.kill(signal);
  await server.exited;
}

describe.each(['postgresql', 'pglite'] as const)('a backup of %s, restored into a fresh server', (engine) => {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('brings back every move acknowledged before it, none after, and the server serves those matches', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'oanquan-backup-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, engine === 'postgresql' ? 'site.pgdump' : 'site.tar.gz');
    let source: { env: Record<string, string>; destroy(): Promise<void> };
    if (engine === 'postgresql') {
      const database = await privatePostgres();
      cleanups.push(database.destroy);
      source = { env: { DATABASE_URL: database.url }, destroy: database.destroy };
    } else {
      const lasting = await lastingServerEnv('pglite');
      cleanups.push(lasting.drop);
      source = { env: lasting.env, destroy: lasting.drop };
    }
    let server = await startServerProcess({ ...source.env, ...serverEnv });
    cleanups.push(() => stop(server, 'SIGKILL'));

    // One game played to its end and one half-way, before the backup.
    const ended = await startGame(server.url, 7);
    await ended.play(ended.moves.length);
    const halfway = await startGame(server.url, 11);
    await halfway.play(6);
    ended.close();
    halfway.close();

    if (engine === 'pglite') {
      // The embedded database is one process's: no copy under a running server.
      const refused = await runBackupCli(source.env, 'backup', '--out', file);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`the server (process ${server.child.pid}) has the embedded database`);
      expect(existsSync(file)).toBe(false);
      await stop(server);
    }
    const backedUp = await runBackupCli(source.env, 'backup', '--out', file);
    expect(backedUp, backedUp.output).toMatchObject({ code: 0 });
    expect(existsSync(file)).toBe(true);
    // A second backup to the same file is refused: a backup never replaces one.
    expect(await runBackupCli(source.env, 'backup', '--out', file)).toMatchObject({ code: 1, output: expect.stringContaining('exists') });

    // After the backup: more moves in the half-way game, and a new game.
    const atBackup = halfway.at();
    if (engine === 'pglite') server = await startServerProcess({ ...source.env, ...serverEnv });
    await halfway.resume(server.url, atBackup);
    await halfway.play(4);
    const after = await startGame(server.url, 13);
    await after.play(2);
    expect((await api<MatchRecord>(server.url, `/api/matches/${halfway.matchId}`)).body.moves).toHaveLength(10);
    after.close();

    // The site is lost: its server and its database.
    await stop(server, 'SIGKILL');
    await source.destroy();

    let fresh: Record<string, string>;
    if (engine === 'postgresql') {
      const database = await privatePostgres();
      cleanups.push(database.destroy);
      fresh = { DATABASE_URL: database.url };
    } else {
      fresh = { PGLITE_DATA_DIR: path.join(dir, 'restored') };
    }
    const restored = await runBackupCli(fresh, 'restore', file);
    expect(restored, restored.output).toMatchObject({ code: 0 });
    const allMoves = ended.moves.length + 6;
    expect(restored.output).toContain(`${allMoves} moves`);
    server = await startServerProcess({ ...fresh, ...serverEnv });

    const endedRecord = await api<MatchRecord>(server.url, `/api/matches/${ended.matchId}`);
    expect(endedRecord.status).toBe(200);
    expect(endedRecord.body.status).toBe('ended');
    expect(movesOf(endedRecord.body)).toEqual(asMoves(ended.moves));
    const halfwayRecord = await api<MatchRecord>(server.url, `/api/matches/${halfway.matchId}`);
    expect(halfwayRecord.body.status).toBe('playing');
    expect(movesOf(halfwayRecord.body)).toEqual(asMoves(halfway.moves.slice(0, 6)));
    // What was played after the backup is not there.
    expect((await api(server.url, `/api/matches/${after.matchId}`)).status).toBe(404);
    const replay = await fetch(`${server.url}/api/matches/${ended.matchId}/record`);
    expect(replay.status).toBe(200);
    expect((await replay.text()).length).toBeGreaterThan(0);
    // The restored half-way game plays on from where the backup left it.
    await halfway.resume(server.url, atBackup);
    await halfway.play(1);
    expect(movesOf((await api<MatchRecord>(server.url, `/api/matches/${halfway.matchId}`)).body)).toEqual(asMoves(halfway.moves.slice(0, 7)));
    halfway.close();

    // A database that holds anything is not replaced without --force; under a running server, not even with it.
    const again = await runBackupCli(fresh, 'restore', file, ...(engine === 'pglite' ? ['--force'] : []));
    expect(again.code).toBe(1);
    expect(again.output).toMatch(engine === 'postgresql' ? /other session\(s\) are connected .*stop the servers/ : /has the embedded database .* open: stop it before restoring/);
    await stop(server);
    const unforced = await runBackupCli(fresh, 'restore', file);
    expect(unforced.code).toBe(1);
    expect(unforced.output).toMatch(engine === 'postgresql' ? /is not empty .*--force/ : /already holds a database: .*--force/);
    const forced = await runBackupCli(fresh, 'restore', file, '--force');
    expect(forced, forced.output).toMatchObject({ code: 0 });
    expect(forced.output).toContain(`${allMoves} moves`);
  }, 600_000);
});
