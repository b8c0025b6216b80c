import type { LiveGames } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, newGuest, openedGame, startApp, TestClient } from '../testing/live.js';

describe.each(engines)('games in play to watch on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  const open: TestClient[] = [];
  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine));
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await app.close();
  });

  it('lists the games in play by their stronger player, with position and spectators, and drops one that ended', async () => {
    const strong = await openedGame([url, url]);
    const weak = await openedGame([url, url]);
    open.push(strong.a, strong.b, weak.a, weak.b);
    await db.prisma.player.update({ where: { id: strong.bob.player.id }, data: { rating: 1720.4 } });
    await db.prisma.player.update({ where: { id: weak.alice.player.id }, data: { rating: 1610 } });
    const watchers = await Promise.all([newGuest(url), newGuest(url)]);
    for (const watcher of watchers) {
      const client = await TestClient.connect(url, watcher.token);
      open.push(client);
      await client.request('room:join', { code: weak.room.code });
    }
    const first = (await api<LiveGames>(url, '/api/live')).body.games;
    const ours = first.filter((game) => [strong.room.matchId, weak.room.matchId].includes(game.matchId));
    expect(ours.map((game) => game.matchId)).toEqual([strong.room.matchId, weak.room.matchId]);
    expect(ours[0]!.players.map((p) => p.rating)).toEqual([1500, 1720]);
    expect(ours.map((game) => game.spectators)).toEqual([0, 2]);
    expect(ours[0]!.position).toMatchObject({ ply: 0, status: 'playing', squares: [0, 5, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5] });

    expect(await strong.a.request('resign', { matchId: strong.room.matchId })).toMatchObject({ ok: true });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const games = (await api<LiveGames>(url, '/api/live')).body.games.map((game) => game.matchId);
      if (!games.includes(strong.room.matchId)) {
        expect(games).toContain(weak.room.matchId);
        break;
      }
      if (Date.now() > deadline) throw new Error('the ended game is still listed');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
});
