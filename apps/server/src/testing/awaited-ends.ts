import type { ArenaView } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { api, newAccount } from './live.js';

/** Polls the match row until it has ended (the deadline sweep runs on the server's own period). */
export async function endedMatch(db: Database, matchId: string, withinMs: number) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const row = await db.prisma.match.findUniqueOrThrow({ where: { id: matchId } });
    if (row.status === 'ended') return row;
    if (Date.now() > deadline) throw new Error(`match ${matchId} still ${row.status} after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** An arena started now with two accounts joined over REST, once its director has paired them: their game and the entrants. */
export async function arenaWithPair(suite: { url: string; db: Database }) {
  const creator = await newAccount(suite.url);
  const made = await api<ArenaView>(suite.url, '/api/arenas', { token: creator.token, body: { pool: '3+2', startsAt: new Date().toISOString(), minutes: 10 } });
  if (made.status !== 201) throw new Error(`arena not made: ${made.status}`);
  const { code } = made.body;
  const entrants = [await newAccount(suite.url), await newAccount(suite.url)];
  for (const entrant of entrants) {
    const joined = await api(suite.url, `/api/arenas/${code}/join`, { token: entrant.token, method: 'POST' });
    if (joined.status !== 200) throw new Error(`arena not joined: ${joined.status}`);
  }
  const arena = await suite.db.prisma.arena.findUniqueOrThrow({ where: { code } });
  const deadline = Date.now() + 5000;
  while ((await suite.db.prisma.arenaGame.count({ where: { arenaId: arena.id } })) === 0) {
    if (Date.now() > deadline) throw new Error('the pair was not made');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const [game] = await suite.db.prisma.arenaGame.findMany({ where: { arenaId: arena.id } });
  return { code, arena, game: game!, entrants };
}

/** Polls the arena's public view until it is finished; the arena row then. */
export async function finishedArena(suite: { url: string; db: Database }, code: string, withinMs: number) {
  const deadline = Date.now() + withinMs;
  let view = (await api<ArenaView>(suite.url, `/api/arenas/${code}`)).body;
  while (view.phase !== 'finished') {
    if (Date.now() > deadline) throw new Error(`the arena is still ${view.phase}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    view = (await api<ArenaView>(suite.url, `/api/arenas/${code}`)).body;
  }
  return suite.db.prisma.arena.findUniqueOrThrow({ where: { code } });
}
