/**
 * What the match feed's periodic check costs one node (MATCH_FEED_CHECK_MS,
 * cluster/match-feed.ts) when its sockets watch thousands of live matches:
 * the time of one check and the SQL statements it sends, when every event
 * has arrived (the usual case) and when 1 % of the matches miss their last
 * event (a Redis outage), at each size in LIVE_MATCHES. The node is a
 * Socket.IO server in this process whose rooms are marked as watched; the
 * matches are rows of a scratch PostgreSQL database. Prints percentiles.
 *
 *   pnpm --filter @oanquan/server bench:feed
 */
import { loadavg } from 'node:os';
import pino from 'pino';
import { Server } from 'socket.io';
import { MatchFeed } from '../src/cluster/match-feed.js';
import { paths } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/database.js';
import type { GameServer } from '../src/realtime/game-server.js';
import { scratchTarget } from '../src/testing/databases.js';
import { formatPercentiles, percentiles } from './load/stats.js';

const SIZES = (process.env.LIVE_MATCHES ?? '1000,5000').split(',').map(Number);
const CHECKS = Number(process.env.CHECKS ?? 30);
const LOST_SHARE = 0.01;

const scratch = await scratchTarget('postgresql');
if (scratch.target.kind !== 'postgresql') throw new Error('the feed is only used with PostgreSQL');
const opened = await openDatabase(scratch.target, { migrationsDir: paths.migrations });

// Every statement the feed sends goes through these two calls: counting them counts its round trips.
let statements = 0;
const counted = <T extends object>(target: T): T =>
  new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver) as unknown;
      if (key === '$queryRaw') return (...args: unknown[]) => (statements++, (value as (...a: unknown[]) => unknown).apply(object, args));
      if (key === 'matchEvent') {
        const delegate = value as { findMany(...a: unknown[]): unknown };
        return { ...delegate, findMany: (...args: unknown[]) => (statements++, delegate.findMany(...args)) };
      }
      return value;
    },
  });
const db: Database = { ...opened, prisma: counted(opened.prisma) };

const io = new Server() as GameServer;
// Clustered, with nothing on the channel: the checks are what is measured.
const feed = new MatchFeed(io, db, pino({ level: 'silent' }), { publish: () => {}, onMessage: () => {} }, 1000);
const check = (feed as unknown as { repair(): Promise<void> }).repair.bind(feed);
const rooms = io.of('/').adapter.rooms;

/** One check, timed, with the statements it sent. */
async function timedCheck(): Promise<{ ms: number; statements: number }> {
  const before = statements;
  const t0 = performance.now();
  await check();
  return { ms: performance.now() - t0, statements: statements - before };
}

let live = 0;
try {
  for (const size of SIZES) {
    // Rooms with a match in play, each watched by a socket of this node.
    await opened.prisma.$executeRawUnsafe(
      `INSERT INTO room (id, code, rules) SELECT gen_random_uuid(), 'F' || lpad(g::text, 7, '0'), '{}'::jsonb FROM generate_series($1::int, $2::int) g`,
      live + 1,
      size,
    );
    await opened.prisma.$executeRawUnsafe(
      `INSERT INTO match (id, room_id, number, status, rules, version, position)
       SELECT gen_random_uuid(), r.id, 1, 'playing', '{}'::jsonb, 10, '{}'::jsonb FROM room r WHERE NOT EXISTS (SELECT 1 FROM match m WHERE m.room_id = r.id)`,
    );
    for (let g = live + 1; g <= size; g++) rooms.set(`room:F${String(g).padStart(7, '0')}`, new Set([`socket${g}`]));
    live = size;
    await opened.prisma.$executeRawUnsafe('ANALYZE room; ANALYZE match');

    const first = await timedCheck();
    const usual: number[] = [];
    let usualStatements = 0;
    for (let i = 0; i < CHECKS; i++) {
      const one = await timedCheck();
      usual.push(one.ms);
      usualStatements = Math.max(usualStatements, one.statements);
    }

    // 1 % of the matches move on without their event reaching this node: a check notices, the next one resends.
    const lost = Math.round(size * LOST_SHARE);
    await opened.prisma.$executeRawUnsafe(
      `WITH picked AS (SELECT id FROM match ORDER BY random() LIMIT $1),
       bumped AS (UPDATE match m SET version = m.version + 1 FROM picked WHERE m.id = picked.id RETURNING m.id, m.version)
       INSERT INTO match_event (match_id, version, payload)
       SELECT id, version, jsonb_build_object('matchId', id::text, 'version', version, 'event', jsonb_build_object('type', 'resigned')) FROM bumped`,
      lost,
    );
    const noticed = await timedCheck();
    const repaired = await timedCheck();

    console.log(`${size} live matches watched by one node (${CHECKS} checks):`);
    console.log(`  first check (learns every match): ${first.ms.toFixed(1)} ms, ${first.statements} statement(s)`);
    console.log(`  usual check: ${formatPercentiles(percentiles(usual))}, ${usualStatements} statement(s) each`);
    console.log(`  ${lost} matches missing their last event: noticed in ${noticed.ms.toFixed(1)} ms (${noticed.statements} statement(s)), resent in ${repaired.ms.toFixed(1)} ms (${repaired.statements} statements)`);
  }
  console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  await feed.stop();
  await opened.close();
  await scratch.drop();
}
