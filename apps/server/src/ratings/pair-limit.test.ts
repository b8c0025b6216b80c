// The rated-pair limit is counted when a rated pairing is made, whatever
// makes it (a challenge, the queue), games in progress and return games
// included: several made at once for one pair cannot pass it.

import type { SessionResponse } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { made } from '../testing/challenges.js';
import { engines } from '../testing/databases.js';
import { newAccount, startApp, TestClient } from '../testing/live.js';
import { queuedGame } from '../testing/queue-games.js';
import { RATED_GAMES_PER_PAIR } from './rating-service.js';

describe.each(engines)('the rated-pair limit on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine, {}, { QUEUE_TICK_MS: '50', QUEUE_BASE_GAP: '100000' }));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
  });

  async function player(): Promise<SessionResponse & { c: TestClient }> {
    const account = await newAccount(url);
    const c = await TestClient.connect(url, account.token);
    clients.push(c);
    return { ...account, c };
  }
  const matchRow = (id: string) => db.prisma.match.findUniqueOrThrow({ where: { id } });

  type Side = { c: TestClient; player: { id: string } };
  /**
   * `count` rated challenges between the two, each taken by the other side, all at once. One
   * direct challenge waits per sender for each person, so they come from both sides, then the lobby.
   */
  async function acceptedAtOnce(a: Side, b: Side, count: 2 | 3) {
    const offers = [
      { offer: made(await a.c.request('challenge:direct', { to: b.player.id, rated: true })), taker: b },
      { offer: made(await b.c.request('challenge:direct', { to: a.player.id, rated: true })), taker: a },
    ];
    if (count === 3) offers.push({ offer: made(await a.c.request('challenge:open', { rated: true })), taker: b });
    const taken = await Promise.all(offers.map(({ offer, taker }) => taker.c.request('challenge:accept', { id: offer.id })));
    return Promise.all(
      taken.map((answer) => {
        if (!answer.ok) throw new Error(answer.code);
        return matchRow(answer.matchId);
      }),
    );
  }

  it('three rated challenges taken at once make no more rated pairings than the limit; the games in progress count for the queue; an aborted first game frees its pairing', async () => {
    const [alice, bob] = [await player(), await player()];
    const games = await acceptedAtOnce(alice, bob, 3);
    // Each rated first game holds its return game's place too: two pairings fill the pair's four rated games.
    const pairings = RATED_GAMES_PER_PAIR / 2;
    expect(games.filter((game) => game.rated)).toHaveLength(pairings);
    expect(games.map((game) => [game.rated, game.pairGame]).sort()).toEqual([[false, null], ...Array.from({ length: pairings }, () => [true, 1])]);

    // None of them has ended, and the queue still sees them: it pairs the two casually.
    const queued = await queuedGame(alice.c, bob.c);
    expect(await matchRow(queued.matchId)).toMatchObject({ rated: false, pairGame: null });

    // A first game aborted before its first move is never rated and has no return game: its place is free again.
    const aborted = games.find((game) => game.rated)!;
    const abort = await alice.c.request('abort', { matchId: aborted.id });
    expect(abort.ok).toBe(true);
    expect(await matchRow(aborted.id)).toMatchObject({ status: 'ended', endReason: 'abort', ratedAt: null });
    const [again, past] = await acceptedAtOnce(bob, alice, 2);
    expect([again!.rated, past!.rated].sort()).toEqual([false, true]);
  });
});
