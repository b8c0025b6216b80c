import type { Challenge } from '@oanquan/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { engines } from '../testing/databases.js';
import { api, newAccount, newGuest, startApp, TestClient } from '../testing/live.js';
import { challenger, made, until } from '../testing/challenges.js';

/** The limits under test; the server trusts the loopback proxy, so each socket's address is the one it forwards. */
const limits = {
  TRUST_PROXY: 'loopback',
  CHALLENGES_PER_PLAYER: '3',
  CHALLENGES_PER_ADDRESS: '200',
  OPEN_CHALLENGES_PER_ADDRESS: '3',
  CHALLENGES_TO_PLAYER: '5',
  CHALLENGES_TO_PLAYER_PER_ADDRESS: '2',
};

/** Free guests one address makes at once, each with a row (a room of its own) and a socket. */
const FLOOD = 40;

describe.each(engines)('challenge floods from one address on %s', (engine) => {
  let url: string;
  let app: App;
  const open: TestClient[] = [];
  beforeAll(async () => {
    ({ url, app } = await startApp(engine, {}, limits));
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  afterAll(async () => {
    await app.close();
  });

  const person = (address: string, kind: 'guest' | 'account' = 'guest') => challenger(url, open, kind, address);
  /**
   * The flood's guests, made eight at a time: forty handshakes queued at once
   * behind forty rooms on PGlite's one connection outlasted the client's
   * 20 s connect timeout on a loaded machine. What is sent is sent at once.
   */
  async function crowd(address: string) {
    const guests = [];
    while (guests.length < FLOOD) guests.push(...(await Promise.all(Array.from({ length: 8 }, () => person(address)))));
    return guests;
  }
  const codes = (answers: Array<{ ok: boolean; code?: string }>) => answers.map((answer) => (answer.ok ? 'ok' : answer.code)).sort();
  const counted = (values: Array<string | undefined>) => Object.fromEntries([...new Set(values)].map((value) => [value, values.filter((v) => v === value).length]));

  it("cuts one address's flood of direct challenges at what waits for one person, from that address and in all", async () => {
    const target = await person('198.51.100.1', 'account');
    const flood = await crowd('203.0.113.9');
    // Every guest sends twice at once: 80 challenges from one address to one person.
    const sent = await Promise.all(flood.flatMap((guest) => [0, 1].map(() => guest.client.request('challenge:direct', { to: target.player.id }))));
    expect(counted(codes(sent))).toEqual({ ok: 2, CHALLENGES_WAITING: 2 * FLOOD - 2 });

    // Other addresses fill the rest of the inbox (five), one challenge each from a sender, and no more.
    const others = await Promise.all(['198.51.100.2', '198.51.100.2', '198.51.100.3', '198.51.100.4'].map((address) => person(address)));
    const answers = [];
    for (const other of others) answers.push(await other.client.request('challenge:direct', { to: target.player.id }));
    expect(answers.map((answer) => (answer.ok ? 'ok' : answer.code))).toEqual(['ok', 'ok', 'ok', 'CHALLENGES_WAITING']);
    await until(() => target.heard.received.length === 5, 'the five challenges that passed');
    // Answered, one frees a place for the sender who was refused.
    expect(await target.client.request('challenge:decline', { id: target.heard.received[0]!.id })).toEqual({ ok: true });
    const late = made(await others[3]!.client.request('challenge:direct', { to: target.player.id }));
    await until(() => target.heard.received.some((c) => c.id === late.id), 'the challenge sent once a place was free');
    // What the flood sent is all there is: the later challenges came after it on the same socket.
    const fromFlood = new Set(flood.map((guest) => guest.player.id));
    expect(target.heard.received.filter((c) => fromFlood.has(c.from.id))).toHaveLength(2);
    expect(target.heard.received).toHaveLength(6);
  });

  it("keeps one address to a few rows of the lobby: a new watcher still gets the others' challenges, and watchers hear a few of the flood", async () => {
    const early = await person('198.51.100.20');
    await early.client.request('lobby:watch', {});
    const real = await Promise.all(['198.51.100.21', '198.51.100.22', '198.51.100.23', '198.51.100.24', '198.51.100.25'].map((address) => person(address)));
    const offers: Challenge[] = [];
    for (const one of real) offers.push(made(await one.client.request('challenge:open', {})));

    const flood = await crowd('203.0.113.10');
    const sent = await Promise.all(flood.flatMap((guest) => [0, 1].map(() => guest.client.request('challenge:open', {}))));
    expect(counted(codes(sent))).toEqual({ ok: 3, TOO_MANY_CHALLENGES: 2 * FLOOD - 3 });

    const late = await person('198.51.100.26');
    const watched = await late.client.request('lobby:watch', {});
    if (!watched.ok) throw new Error(watched.code);
    const fromFlood = new Set(flood.map((guest) => guest.player.id));
    expect(watched.challenges.map((c) => c.id)).toEqual(expect.arrayContaining(offers.map((c) => c.id)));
    expect(watched.challenges.filter((c) => fromFlood.has(c.from.id))).toHaveLength(3);

    // A real challenge made after the flood reaches the early watcher after all the flood's news: three of it, no more.
    const after = made(await real[0]!.client.request('challenge:open', {}));
    await until(() => early.heard.added.some((c) => c.id === after.id), 'the challenge made after the flood');
    expect(early.heard.added.filter((c) => fromFlood.has(c.from.id))).toHaveLength(3);
    expect(early.heard.added).toHaveLength(3 + offers.length + 1);
  });
});

describe.each(engines)('who may challenge a player, on %s', (engine) => {
  let url: string;
  let app: App;
  const open: TestClient[] = [];
  beforeAll(async () => {
    ({ url, app } = await startApp(engine, {}, { FOLLOWS_PER_PLAYER: '2' }));
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await app.close();
  });

  const person = (kind: 'guest' | 'account') => challenger(url, open, kind);

  const send = (method: 'PATCH' | 'PUT' | 'DELETE' | 'GET', path: string, token: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, origin: url, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> }));

  it('enforces each of the four choices at challenge:direct, and nothing refused reaches the target', async () => {
    const [target, guest, account] = await Promise.all([person('account'), person('guest'), person('account')]);
    const choose = async (challengesFrom: string) => expect(await send('PATCH', '/api/settings', target.token, { challengesFrom })).toEqual({ status: 200, body: { challengesFrom } });
    const tryFrom = async (who: typeof guest) => {
      const answer = await who.client.request('challenge:direct', { to: target.player.id });
      if (!answer.ok) return answer.code;
      expect(await who.client.request('challenge:cancel', { id: answer.challenge.id })).toEqual({ ok: true });
      return 'ok';
    };

    expect(await send('GET', '/api/settings', target.token)).toEqual({ status: 200, body: { challengesFrom: 'everyone' } });
    expect([await tryFrom(guest), await tryFrom(account)]).toEqual(['ok', 'ok']);
    await choose('accounts');
    expect([await tryFrom(guest), await tryFrom(account)]).toEqual(['NOT_ACCEPTING_CHALLENGES', 'ok']);
    await choose('following');
    expect([await tryFrom(guest), await tryFrom(account)]).toEqual(['NOT_ACCEPTING_CHALLENGES', 'NOT_ACCEPTING_CHALLENGES']);
    expect(await send('PUT', `/api/follows/${account.player.id}`, target.token)).toEqual({ status: 200, body: { following: true } });
    expect([await tryFrom(guest), await tryFrom(account)]).toEqual(['NOT_ACCEPTING_CHALLENGES', 'ok']);
    // Following is one way: the followed account does not follow back.
    expect(await send('GET', `/api/follows/${target.player.id}`, account.token)).toEqual({ status: 200, body: { following: false } });
    await choose('nobody');
    expect([await tryFrom(guest), await tryFrom(account)]).toEqual(['NOT_ACCEPTING_CHALLENGES', 'NOT_ACCEPTING_CHALLENGES']);
    await choose('following');
    expect(await send('DELETE', `/api/follows/${account.player.id}`, target.token)).toEqual({ status: 200, body: { following: false } });
    expect(await tryFrom(account)).toBe('NOT_ACCEPTING_CHALLENGES');

    // One last challenge passes; everything the target heard before it is the five that were let through.
    await choose('everyone');
    const last = made(await guest.client.request('challenge:direct', { to: target.player.id }));
    await until(() => target.heard.received.some((c) => c.id === last.id), 'the last challenge');
    expect(target.heard.received.map((c) => c.from.id)).toEqual([guest.player.id, account.player.id, account.player.id, account.player.id, guest.player.id]);
  });

  it('keeps settings for accounts only and refuses bad ones unchanged', async () => {
    const [guest, account] = await Promise.all([newGuest(url), newAccount(url)]);
    expect(await send('GET', '/api/settings', guest.token)).toEqual({ status: 200, body: { challengesFrom: 'everyone' } });
    expect(await send('PATCH', '/api/settings', guest.token, { challengesFrom: 'nobody' })).toMatchObject({ status: 403, body: { code: 'ACCOUNT_REQUIRED' } });
    for (const bad of [{ challengesFrom: 'friends' }, { challengesFrom: 'nobody', colour: 'red' }, [], 'nobody']) {
      expect(await send('PATCH', '/api/settings', account.token, bad)).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    }
    expect(await send('GET', '/api/settings', account.token)).toEqual({ status: 200, body: { challengesFrom: 'everyone' } });
  });

  it('follows accounts only, not oneself, up to the cap; unfollowing frees a place', async () => {
    const [me, guest, ...others] = await Promise.all([newAccount(url), newGuest(url), newAccount(url), newAccount(url), newAccount(url)]);
    await api(url, '/api/rooms', { token: guest.token, body: {} });
    const follow = (id: string, token = me.token) => send('PUT', `/api/follows/${id}`, token);
    expect(await follow(others[0]!.player.id)).toEqual({ status: 200, body: { following: true } });
    expect(await follow(others[0]!.player.id)).toEqual({ status: 200, body: { following: true } });
    expect(await follow(others[1]!.player.id)).toEqual({ status: 200, body: { following: true } });
    expect(await follow(others[2]!.player.id)).toMatchObject({ status: 429, body: { code: 'TOO_MANY_FOLLOWS' } });
    expect(await send('GET', `/api/follows/${others[2]!.player.id}`, me.token)).toEqual({ status: 200, body: { following: false } });
    expect(await send('DELETE', `/api/follows/${others[0]!.player.id}`, me.token)).toEqual({ status: 200, body: { following: false } });
    expect(await follow(others[2]!.player.id)).toEqual({ status: 200, body: { following: true } });

    expect(await follow(guest.player.id)).toMatchObject({ status: 403, body: { code: 'ACCOUNT_REQUIRED' } });
    expect(await follow(others[0]!.player.id, guest.token)).toMatchObject({ status: 403, body: { code: 'ACCOUNT_REQUIRED' } });
    expect(await follow(me.player.id)).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    expect(await follow('00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await follow('nope')).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
  });
});
