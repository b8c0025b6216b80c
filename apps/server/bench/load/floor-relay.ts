/**
 * The floor of a move on this machine: a bare Socket.IO relay that commits
 * each move before relaying it, as one prepared statement (compare-and-set
 * of the match version, insert of the move and of its event) through a
 * node-postgres pool. No rules, no identity, no clocks: what is left of a
 * move's cost when everything the real server adds is taken away.
 *
 * Run as its own process: `tsx floor-relay.ts <databaseUrl> <port>`.
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { Server } from 'socket.io';
import { commitMoveSql } from './floor-sql.js';

const [databaseUrl, port] = process.argv.slice(2) as [string, string];
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });

await pool.query(`
  CREATE TABLE IF NOT EXISTS floor_match (id int PRIMARY KEY, version int NOT NULL DEFAULT 0);
  CREATE TABLE IF NOT EXISTS floor_move (match_id int, ply int, move_id text, square smallint, dir smallint, PRIMARY KEY (match_id, ply), UNIQUE (match_id, move_id));
  CREATE TABLE IF NOT EXISTS floor_event (match_id int, version int, payload jsonb, PRIMARY KEY (match_id, version));
`);

interface FloorMove {
  game: number;
  version: number;
  moveId: string;
  square: number;
  dir: number;
}

const http = createServer();
const io = new Server(http, { serveClient: false });
io.on('connection', (socket) => {
  const game = Number((socket.handshake.auth as { game?: unknown }).game);
  void socket.join(`g${game}`);
  socket.on('echo', (payload: unknown, ack: (answer: unknown) => void) => ack(payload));
  socket.on('open', (ack: () => void) => {
    pool.query('INSERT INTO floor_match (id) VALUES ($1) ON CONFLICT DO NOTHING', [game]).then(() => ack(), () => ack());
  });
  socket.on('move', (move: FloorMove, ack: (answer: unknown) => void) => {
    const event = { version: move.version + 1, square: move.square, dir: move.dir };
    pool
      .query({ name: 'commit-move', text: commitMoveSql, values: [game, move.version, move.moveId, move.square, move.dir, JSON.stringify(event)] })
      .then(
        (result) => {
          if (result.rowCount !== 1) return ack({ ok: false, code: 'STALE_VERSION' });
          io.to(`g${game}`).emit('moved', event);
          ack({ ok: true, version: event.version });
        },
        (error: Error) => ack({ ok: false, code: 'INTERNAL', message: error.message }),
      );
  });
});
http.listen(Number(port), '127.0.0.1', () => console.log('ready'));
process.once('SIGTERM', () => {
  io.close();
  void pool.end().then(() => process.exit(0));
});
