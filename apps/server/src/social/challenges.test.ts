import { PRESETS } from '@oanquan/rules';
import type { RoomResponse } from '@oanquan/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { engines } from '../testing/databases.js';
import { api, newGuest, startApp, TestClient } from '../testing/live.js';
import { challenger, listen, made, until } from '../testing/challenges.js';

const fast = { CHALLENGE_TICK_MS: '100', CHALLENGE_GRACE_MS: '1000', CHALLENGE_TTL_MS: '5000' };

describe.each(engines)('challenges on %s', (engine) => {
  let url: string;
  let app: App;
  const open: TestClient[] = [];
  beforeAll(async () => {
    ({ url, app } = await startApp(engine, {}, fast));
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  afterAll(async () => {
    await app.close();
  });

  const person = (kind: 'guest' | 'account' = 'guest') => challenger(url, open, kind);

  const room = async (code: string) => (await api<RoomResponse>(url, `/api/rooms/${code}`)).body;

  it('an open challenge appears in the lobby of those watching, one click takes it, and both players go to a room at the opener', async () => {
    const [alice, bob, carol] = await Promise.all([person(), person(), person()]);
    expect(await carol.client.request('lobby:watch', {})).toMatchObject({ ok: true });
    const offered = made(await alice.client.request('challenge:open', { timeControl: { initialSeconds: 180, incrementSeconds: 2 }, rules: { preset: 'vietnam' } }));
    expect(offered).toMatchObject({ from: { id: alice.player.id, name: alice.player.name, rating: 1500, account: false }, to: null, rated: false, expiresAt: null });
    expect(offered.rules).toEqual(PRESETS.vietnam);
    await until(() => carol.heard.added.length === 1, 'the challenge in the lobby');
    expect(carol.heard.added[0]).toEqual(offered);
    const watch = await bob.client.request('lobby:watch', {});
    expect(watch.ok && watch.challenges.map((c) => c.id)).toContain(offered.id);

    const taken = await bob.client.request('challenge:accept', { id: offered.id });
    if (!taken.ok) throw new Error(taken.code);
    await until(() => alice.heard.accepted.length === 1 && bob.heard.accepted.length === 1, 'both players sent to the room');
    expect(alice.heard.accepted[0]).toEqual({ id: offered.id, roomCode: taken.roomCode, matchId: taken.matchId });
    await until(() => carol.heard.removed.length === 1, 'the challenge gone from the lobby');
    expect(carol.heard.removed[0]).toEqual({ id: offered.id, reason: 'accepted' });
    const made_ = await room(taken.roomCode);
    expect(made_).toMatchObject({ status: 'opener', rated: false, timeControl: { initialSeconds: 180, incrementSeconds: 2 }, rules: PRESETS.vietnam });
    expect(made_.seats.map((s) => s?.id)).toEqual([alice.player.id, bob.player.id]);
    // Taken once: a second taker finds it gone.
    expect(await carol.client.request('challenge:accept', { id: offered.id })).toMatchObject({ ok: false, code: 'CHALLENGE_GONE' });
  });

  it('its creator cancels it: it leaves the lobby and can no longer be taken; nobody else can cancel it', async () => {
    const [alice, bob] = await Promise.all([person(), person()]);
    await bob.client.request('lobby:watch', {});
    const offered = made(await alice.client.request('challenge:open', {}));
    expect(await bob.client.request('challenge:cancel', { id: offered.id })).toMatchObject({ ok: false, code: 'CHALLENGE_GONE' });
    expect(await alice.client.request('challenge:accept', { id: offered.id })).toMatchObject({ ok: false, code: 'NOT_CHALLENGEABLE' });
    expect(await alice.client.request('challenge:cancel', { id: offered.id })).toEqual({ ok: true });
    await until(() => bob.heard.removed.some((g) => g.id === offered.id), 'the cancelled challenge leaving the lobby');
    expect(bob.heard.removed.find((g) => g.id === offered.id)?.reason).toBe('cancelled');
    expect(await bob.client.request('challenge:accept', { id: offered.id })).toMatchObject({ ok: false, code: 'CHALLENGE_GONE' });
  });

  it('rated challenges are made and taken by accounts only', async () => {
    const [guest, alice, bob] = await Promise.all([person(), person('account'), person('account')]);
    expect(await guest.client.request('challenge:open', { rated: true })).toMatchObject({ ok: false, code: 'ACCOUNT_REQUIRED' });
    const offered = made(await alice.client.request('challenge:open', { rated: true }));
    expect(offered).toMatchObject({ rated: true, from: { account: true } });
    expect(await guest.client.request('challenge:accept', { id: offered.id })).toMatchObject({ ok: false, code: 'ACCOUNT_REQUIRED' });
    expect(await alice.client.request('challenge:direct', { to: guest.player.id, rated: true })).toMatchObject({ ok: false, code: 'ACCOUNT_REQUIRED' });
    const taken = await bob.client.request('challenge:accept', { id: offered.id });
    if (!taken.ok) throw new Error(taken.code);
    expect(await room(taken.roomCode)).toMatchObject({ rated: true, status: 'opener' });
  });

  it('an open challenge goes when its creator has been gone past the grace, not before', async () => {
    const [alice, bob] = await Promise.all([person(), person()]);
    await bob.client.request('lobby:watch', {});
    const offered = made(await alice.client.request('challenge:open', {}));
    // Renewed while she is here: three graces later it is still listed.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const still = await bob.client.request('lobby:watch', {});
    expect(still.ok && still.challenges.map((c) => c.id)).toContain(offered.id);
    alice.client.close();
    await until(() => bob.heard.removed.some((g) => g.id === offered.id), 'the challenge of a creator who left');
    expect(bob.heard.removed.find((g) => g.id === offered.id)?.reason).toBe('left');
    const after = await bob.client.request('lobby:watch', {});
    expect(after.ok && after.challenges.map((c) => c.id)).not.toContain(offered.id);
  });

  it('a direct challenge reaches every socket of its target; declined, its creator is told', async () => {
    const [alice, bob] = await Promise.all([person(), person()]);
    const second = await TestClient.connect(url, bob.token);
    open.push(second);
    const bobElsewhere = listen(second);
    const offered = made(await alice.client.request('challenge:direct', { to: bob.player.id, timeControl: { initialSeconds: 300, incrementSeconds: 3 } }));
    expect(offered.to).toEqual({ id: bob.player.id, name: bob.player.name });
    expect(Date.parse(offered.expiresAt!)).toBeGreaterThan(Date.now());
    await until(() => bob.heard.received.length === 1 && bobElsewhere.received.length === 1, 'the challenge on both of her tabs');
    // Not in the lobby: it is for her alone.
    const lobby = await alice.client.request('lobby:watch', {});
    expect(lobby.ok && lobby.challenges.map((c) => c.id)).not.toContain(offered.id);
    expect(await alice.client.request('challenge:decline', { id: offered.id })).toMatchObject({ ok: false, code: 'CHALLENGE_GONE' });
    expect(await second.request('challenge:decline', { id: offered.id })).toEqual({ ok: true });
    await until(() => alice.heard.gone.length === 1 && bob.heard.gone.length === 1, 'the refusal told to both');
    expect(alice.heard.gone[0]).toEqual({ id: offered.id, reason: 'declined' });
    expect(await bob.client.request('challenge:accept', { id: offered.id })).toMatchObject({ ok: false, code: 'CHALLENGE_GONE' });
  });

  it('a direct challenge accepted makes the room; nobody but its target can take it', async () => {
    const [alice, bob, carol] = await Promise.all([person(), person(), person()]);
    const offered = made(await alice.client.request('challenge:direct', { to: bob.player.id }));
    expect(await carol.client.request('challenge:accept', { id: offered.id })).toMatchObject({ ok: false, code: 'CHALLENGE_GONE' });
    const taken = await bob.client.request('challenge:accept', { id: offered.id });
    if (!taken.ok) throw new Error(taken.code);
    await until(() => alice.heard.accepted.length === 1, 'the challenger sent to the room');
    expect((await room(taken.roomCode)).seats.map((s) => s?.id)).toEqual([alice.player.id, bob.player.id]);
  });

  it('a direct challenge lapses unanswered, and goes when its target leaves', async () => {
    const [alice, bob, carol] = await Promise.all([person(), person(), person()]);
    const lapsing = made(await alice.client.request('challenge:direct', { to: bob.player.id }));
    await until(() => alice.heard.gone.length === 1 && bob.heard.gone.length === 1, 'the lapsed challenge');
    expect(bob.heard.gone[0]).toEqual({ id: lapsing.id, reason: 'lapsed' });
    expect(await bob.client.request('challenge:accept', { id: lapsing.id })).toMatchObject({ ok: false, code: 'CHALLENGE_GONE' });
    const left = made(await alice.client.request('challenge:direct', { to: carol.player.id }));
    carol.client.close();
    await until(() => alice.heard.gone.some((g) => g.id === left.id), 'the challenge of a target who left');
    expect(alice.heard.gone.find((g) => g.id === left.id)?.reason).toBe('left');
  });

  it('refuses challenging oneself or nobody, and malformed terms; nothing is made', async () => {
    const alice = await person();
    expect(await alice.client.request('challenge:direct', { to: alice.player.id })).toMatchObject({ ok: false, code: 'NOT_CHALLENGEABLE' });
    expect(await alice.client.request('challenge:direct', { to: '00000000-0000-4000-8000-000000000000' })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    for (const payload of [{ rated: 'yes' }, { timeControl: { initialSeconds: 0, incrementSeconds: 0 } }, { rules: { preset: 'chess' } }, { colour: 'white' }, null]) {
      expect(await alice.client.request('challenge:open', payload)).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    }
    expect(await alice.client.request('challenge:accept', { id: 'nope' })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    const lobby = await alice.client.request('lobby:watch', {});
    expect(lobby.ok && lobby.challenges.filter((c) => c.from.id === alice.player.id)).toEqual([]);
  });

  it('blocking stops challenges both ways, open and direct; unblocking lets them through again', async () => {
    const [alice, bob] = await Promise.all([person(), person()]);
    const block = (method: 'PUT' | 'DELETE') => fetch(`${url}/api/blocks/${alice.player.id}`, { method, headers: { authorization: `Bearer ${bob.token}`, origin: url } });
    expect((await block('PUT')).status).toBe(200);
    expect((await api(url, '/api/blocks', { token: bob.token })).body).toEqual({ players: [{ id: alice.player.id, name: alice.player.name }] });
    expect(await alice.client.request('challenge:direct', { to: bob.player.id })).toMatchObject({ ok: false, code: 'BLOCKED' });
    expect(await bob.client.request('challenge:direct', { to: alice.player.id })).toMatchObject({ ok: false, code: 'BLOCKED' });
    // Neither sees the other's open challenges; one taken by its id anyway is refused.
    await bob.client.request('lobby:watch', {});
    const offered = made(await alice.client.request('challenge:open', {}));
    const lobby = await bob.client.request('lobby:watch', {});
    expect(lobby.ok && lobby.challenges.map((c) => c.id)).not.toContain(offered.id);
    expect(await bob.client.request('challenge:accept', { id: offered.id })).toMatchObject({ ok: false, code: 'BLOCKED' });
    // A challenge made after is the first bob hears of: had alice's reached him, it would be there before.
    const carol = await person();
    made(await carol.client.request('challenge:open', {}));
    await until(() => bob.heard.added.length === 1, "another's open challenge");
    expect(bob.heard.added[0]!.from.id).toBe(carol.player.id);
    expect(bob.heard.received).toEqual([]);
    expect((await block('DELETE')).status).toBe(200);
    expect(made(await alice.client.request('challenge:direct', { to: bob.player.id }))).toMatchObject({ to: { id: bob.player.id } });
    await until(() => bob.heard.received.length === 1, 'the challenge once unblocked');
  });
});

describe.each(engines)('challenge limits on %s', (engine) => {
  let url: string;
  let app: App;
  const open: TestClient[] = [];
  beforeAll(async () => {
    ({ url, app } = await startApp(engine, {}, { CHALLENGES_PER_PLAYER: '3', CHALLENGES_PER_ADDRESS: '4', RATE_LIMIT_ROOMS_PER_MINUTE: '4', BLOCKS_PER_PLAYER: '2' }));
  });
  afterAll(async () => {
    for (const client of open.splice(0)) client.close();
    await app.close();
  });

  it('counts challenges out at once per person and per address, and challenges made per person per minute', async () => {
    const [alice, bob] = await Promise.all([newGuest(url), newGuest(url)]);
    const [a, b] = await Promise.all([TestClient.connect(url, alice.token), TestClient.connect(url, bob.token)]);
    open.push(a, b);
    const offers = [];
    for (let i = 0; i < 3; i++) offers.push(made(await a.request('challenge:open', {})));
    expect(await a.request('challenge:open', {})).toMatchObject({ ok: false, code: 'TOO_MANY_CHALLENGES' });
    // The fourth from this address is bob's; a fifth is one too many for the address.
    made(await b.request('challenge:open', {}));
    expect(await b.request('challenge:direct', { to: alice.player.id })).toMatchObject({ ok: false, code: 'TOO_MANY_CHALLENGES' });
    // A place freed, but alice has made (or tried) four this minute: a fifth is past her budget.
    expect(await a.request('challenge:cancel', { id: offers[0]!.id })).toEqual({ ok: true });
    expect(await a.request('challenge:open', {})).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    const lobby = await a.request('lobby:watch', {});
    expect(lobby.ok && lobby.challenges.length).toBe(3);
  });

  it('caps the people one player blocks', async () => {
    const [me, ...others] = await Promise.all([newGuest(url), newGuest(url), newGuest(url), newGuest(url)]);
    // The others need rows to be blocked: a seat in a room makes one.
    for (const other of others) await api(url, '/api/rooms', { token: other.token, body: {} });
    const block = (id: string) => fetch(`${url}/api/blocks/${id}`, { method: 'PUT', headers: { authorization: `Bearer ${me.token}`, origin: url } });
    expect((await block(others[0]!.player.id)).status).toBe(200);
    expect((await block(others[1]!.player.id)).status).toBe(200);
    expect((await block(others[1]!.player.id)).status).toBe(200);
    const refused = await block(others[2]!.player.id);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await block(me.player.id)).status).toBe(400);
  });
});
