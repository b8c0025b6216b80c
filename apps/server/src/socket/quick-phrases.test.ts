import type { PhraseMessage } from '@oanquan/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { waitFor } from '../testing/wait-for.js';
import { engines } from '../testing/databases.js';
import { heard, newGuest, openedGame, startApp, TestClient } from '../testing/live.js';

describe.each(engines)('quick phrases on %s', (engine) => {
  let url: string;
  const open: TestClient[] = [];

  let app: App;
  beforeAll(async () => {
    // A room's spectators may say five phrases a minute together: no window ends within a test.
    ({ url, app } = await startApp(engine, {}, { ROOM_PHRASES_SPECTATORS: '5', ROOM_PHRASES_WINDOW_MS: '60000' }));
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  afterAll(async () => {
    await app.close();
  });

  /** Two players past the opener, and two spectators in their room. */
  async function table() {
    const game = await openedGame([url, url]);
    const watchers = await Promise.all([newGuest(url), newGuest(url)]);
    const [c, d] = await Promise.all(watchers.map((w) => TestClient.connect(url, w.token)));
    open.push(game.a, game.b, c!, d!);
    await c!.request('room:join', { code: game.room.code });
    await d!.request('room:join', { code: game.room.code });
    return { ...game, c: c!, d: d!, heard: [game.a, game.b, c!, d!].map(heard) as [PhraseMessage[], PhraseMessage[], PhraseMessage[], PhraseMessage[]] };
  }

  it("a player's phrase reaches the opponent and the spectators as an id, with the sender's seat; it is never a match event", async () => {
    const { a, b, room, alice, heard: [toA, toB, toC, toD] } = await table();
    const before = await a.request('sync', { matchId: room.matchId, version: 0 });
    expect(await a.request('phrase:say', { matchId: room.matchId, phrase: 'good-luck' })).toEqual({ ok: true });
    expect(await b.request('phrase:say', { matchId: room.matchId, phrase: 'thanks' })).toEqual({ ok: true });
    await waitFor('both phrases everywhere', () => [toA, toB, toC, toD].every((messages) => messages.length === 2), { everyMs: 20 });
    for (const messages of [toA, toB, toC, toD]) {
      expect(messages.map((m) => [m.phrase, m.seat])).toEqual([['good-luck', 0], ['thanks', 1]]);
      expect(messages[0]).toMatchObject({ matchId: room.matchId, from: { id: alice.player.id } });
    }
    // Kept out of the record: the match's events are what they were.
    expect(await a.request('sync', { matchId: room.matchId, version: 0 })).toEqual(before);
    expect(JSON.stringify(before)).not.toContain('good-luck');
  });

  it("a spectator's phrase reaches the spectators only, never the players", async () => {
    const { a, c, room, heard: [toA, toB, toC, toD] } = await table();
    expect(await c.request('phrase:say', { matchId: room.matchId, phrase: 'nice' })).toEqual({ ok: true });
    await waitFor("the spectator's phrase at both spectators", () => toC.length === 1 && toD.length === 1, { everyMs: 20 });
    expect(toD[0]).toMatchObject({ phrase: 'nice', seat: null });
    // A player's phrase sent after it arrives after it: had the spectator's reached the players, it would be there first.
    expect(await a.request('phrase:say', { matchId: room.matchId, phrase: 'hello' })).toEqual({ ok: true });
    await waitFor("the player's phrase", () => toB.length === 1 && toA.length === 1, { everyMs: 20 });
    expect(toA.map((m) => m.phrase)).toEqual(['hello']);
    expect(toB.map((m) => m.phrase)).toEqual(['hello']);
  });

  it('limits each person across their sockets: past the burst a phrase is refused with TOO_MANY_PHRASES and sent to no one', async () => {
    const { a, alice, room, heard: [, toB] } = await table();
    const second = await TestClient.connect(url, alice.token);
    open.push(second);
    await second.request('room:join', { code: room.code });
    const say = (client: TestClient) => client.request('phrase:say', { matchId: room.matchId, phrase: 'gg' });
    expect([await say(a), await say(second), await say(a)]).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(await say(second)).toMatchObject({ ok: false, code: 'TOO_MANY_PHRASES' });
    await waitFor('the three phrases allowed', () => toB.length >= 3, { everyMs: 20 });
    // The refusal was acknowledged after the allowed three were broadcast; nothing follows them.
    expect(await a.request('sync', { matchId: room.matchId, version: 0 })).toMatchObject({ ok: true });
    expect(toB).toHaveLength(3);
  });

  it("thirty spectators get the room's spectator budget delivered and no more, and the players still speak", async () => {
    const { a, b, room, heard: [toA, toB, toC] } = await table();
    const crowd = await Promise.all(Array.from({ length: 30 }, async () => TestClient.connect(url, (await newGuest(url)).token)));
    open.push(...crowd);
    await Promise.all(crowd.map((spectator) => spectator.request('room:join', { code: room.code })));
    const acks = await Promise.all(crowd.map((spectator) => spectator.request('phrase:say', { matchId: room.matchId, phrase: 'nice' })));
    expect(acks.filter((ack) => ack.ok)).toHaveLength(5);
    expect(acks.filter((ack) => !ack.ok && ack.code === 'TOO_MANY_PHRASES')).toHaveLength(25);
    // The players' budgets are their own: the crowd took nothing from them.
    expect(await a.request('phrase:say', { matchId: room.matchId, phrase: 'hello' })).toEqual({ ok: true });
    expect(await b.request('phrase:say', { matchId: room.matchId, phrase: 'thanks' })).toEqual({ ok: true });
    await waitFor("the players' phrases at a spectator", () => toC.filter((m) => m.seat !== null).length === 2, { everyMs: 20 });
    // Sent after every spectator's phrase was answered, the players' arrive after all those delivered.
    expect(toC.map((m) => m.seat)).toEqual([null, null, null, null, null, 0, 1]);
    expect(toA.map((m) => m.phrase)).toEqual(['hello', 'thanks']);
    expect(toB.map((m) => m.phrase)).toEqual(['hello', 'thanks']);
  });

  it('a player blocked by the opponent is heard by the spectators only; unblocked, by everyone again', async () => {
    const { a, bob, alice, room, heard: [toA, toB, toC] } = await table();
    const block = (method: 'PUT' | 'DELETE') => fetch(`${url}/api/blocks/${alice.player.id}`, { method, headers: { authorization: `Bearer ${bob.token}`, origin: url } });
    expect((await block('PUT')).status).toBe(200);
    expect(await a.request('phrase:say', { matchId: room.matchId, phrase: 'nice' })).toEqual({ ok: true });
    await waitFor('the phrase at the spectator and the sender', () => toC.length === 1 && toA.length === 1, { everyMs: 20 });
    expect((await block('DELETE')).status).toBe(200);
    expect(await a.request('phrase:say', { matchId: room.matchId, phrase: 'gg' })).toEqual({ ok: true });
    await waitFor('the phrase after the unblocking', () => toC.length === 2 && toB.length === 1, { everyMs: 20 });
    // Had the first reached the blocker, it would be there before the second.
    expect(toB.map((m) => m.phrase)).toEqual(['gg']);
  });

  it('refuses a malformed or unknown phrase with BAD_REQUEST, and one from outside the room with NOT_IN_ROOM; nothing is sent', async () => {
    const { a, room, heard: [toA, toB, toC] } = await table();
    for (const payload of [
      { matchId: room.matchId, phrase: 'you are bad' },
      { matchId: room.matchId, phrase: 'gg', text: 'free text' },
      { matchId: room.matchId },
      { matchId: 'not-a-match', phrase: 'gg' },
      'gg',
    ]) {
      expect(await a.request('phrase:say', payload)).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    }
    const stranger = await TestClient.connect(url, (await newGuest(url)).token);
    open.push(stranger);
    expect(await stranger.request('phrase:say', { matchId: room.matchId, phrase: 'gg' })).toMatchObject({ ok: false, code: 'NOT_IN_ROOM' });
    // A phrase that is allowed, sent last, is the first any of them hears.
    expect(await a.request('phrase:say', { matchId: room.matchId, phrase: 'close' })).toEqual({ ok: true });
    await waitFor('the one allowed phrase', () => toB.length === 1 && toC.length === 1 && toA.length === 1, { everyMs: 20 });
    expect([toA, toB, toC].map((messages) => messages.map((m) => m.phrase))).toEqual([['close'], ['close'], ['close']]);
  });
});
