import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { engines } from '../testing/databases.js';
import { newGuest, newRoom, startApp, TestClient } from '../testing/live.js';
import { RawSocket } from '../testing/raw-socket.js';

/**
 * The socket edge under hostile input, on a real app over a real database,
 * with limits lowered (per-player sockets and address through the
 * environment, like production) so a handful of sockets shows them.
 */
describe.each(engines)('the socket edge on %s', (engine) => {
  let url: string;
  let app: App;
  const open: Array<{ close(): void }> = [];

  beforeAll(async () => {
    ({ url, app } = await startApp(
      engine,
      { socketLimits: { rateBurst: 5, ratePerSecond: 0.5, maxRefusals: 6 } },
      { MAX_SOCKETS_PER_PLAYER: '3', MAX_SOCKETS_PER_ADDRESS: '6' },
    ));
  });
  afterEach(async () => {
    for (const socket of open.splice(0)) socket.close();
    // Every test starts with all slots free again.
    const deadline = Date.now() + 10_000;
    while (app.io.of('/').sockets.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  });
  afterAll(async () => {
    await app.close();
  });

  async function client(token: string): Promise<TestClient> {
    const c = await TestClient.connect(url, token);
    open.push(c);
    return c;
  }
  async function raw(token: string): Promise<RawSocket> {
    const r = await RawSocket.connect(url, token);
    open.push(r);
    return r;
  }
  async function refusal(token: string): Promise<unknown> {
    const failure = await TestClient.connect(url, token).then(
      (c) => {
        open.push(c);
        return undefined;
      },
      (error: Error & { data?: unknown }) => error.data,
    );
    return failure;
  }
  const sync = () => ({ matchId: randomUUID(), version: 0 });

  it('answers a message nested thousands deep instead of dying of it, and the connection goes on', async () => {
    const guest = await newGuest(url);
    const r = await raw(guest.token);
    // The attacker's frame: 10 KB, under the transport limit, 5,000 arrays deep.
    r.send(`421["move",${'['.repeat(5000)}${']'.repeat(5000)}]`);
    expect(await r.ack(1)).toMatchObject({ ok: false, code: 'PAYLOAD_TOO_LARGE' });
    // Small enough to pass the size limit, too deep to be parsed.
    r.send(`422["move",${'['.repeat(900)}${']'.repeat(900)}]`);
    expect(await r.ack(2)).toMatchObject({ ok: false, code: 'BAD_REQUEST', message: expect.stringMatching(/nested deeper/) });
    r.send(`423["sync",${JSON.stringify(sync())}]`);
    expect(await r.ack(3)).toMatchObject({ ok: false, code: 'MATCH_NOT_FOUND' });
    expect(r.closed).toBe(false);
  });

  it.each([
    ['invalid JSON', '42garbage'],
    ['an event named by an object', '421[{"toString":1}]'],
    ['a binary frame', Buffer.from([0x04, 0xff, 0x00])],
    ['a binary event', '451-["sync",{"_placeholder":true,"num":0}]'],
    ['another namespace', '40/admin,{}'],
    // The socket's request is let go once it is connected: no second socket on the connection may need it.
    ['a second connect on the same connection', '40{"token":"x"}'],
  ])('closes a connection that sends %s, and only that one', async (_name, frame) => {
    const bystander = await client((await newGuest(url)).token);
    const r = await raw((await newGuest(url)).token);
    r.send(frame);
    await r.until('close', 'the connection to close');
    expect(await bystander.request('sync', sync())).toMatchObject({ ok: false, code: 'MATCH_NOT_FOUND' });
  });

  it('refuses a version past what the database holds as a bad request, not an internal error', async () => {
    const guest = await newGuest(url);
    const room = await newRoom(url, guest.token);
    const c = await client(guest.token);
    for (const version of [2 ** 31, 1e15]) {
      expect(await c.request('sync', { matchId: room.matchId, version })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    }
    expect(await c.request('move', { matchId: room.matchId, moveId: 'm1', version: 2 ** 31, square: 1, dir: 1 })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
  });

  it("refuses a player's sockets past MAX_SOCKETS_PER_PLAYER at the handshake, and frees a slot when one closes", async () => {
    const guest = await newGuest(url);
    const held = [await client(guest.token), await client(guest.token), await client(guest.token)];
    expect(await refusal(guest.token)).toEqual({ ok: false, code: 'TOO_MANY_CONNECTIONS', message: expect.stringMatching(/3 connections per player/) });
    // Another player from the same address is still welcome.
    expect(await refusal((await newGuest(url)).token)).toBeUndefined();

    held[0]!.close();
    const deadline = Date.now() + 10_000;
    let again = await refusal(guest.token);
    while (again !== undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      again = await refusal(guest.token);
    }
    expect(again).toBeUndefined();
  });

  it('refuses sockets past MAX_SOCKETS_PER_ADDRESS before looking at the token', async () => {
    const [first, second, third] = await Promise.all([newGuest(url), newGuest(url), newGuest(url)]);
    for (const guest of [first, first, first, second, second, second]) await client(guest.token);
    expect(await refusal(third.token)).toMatchObject({ ok: false, code: 'TOO_MANY_CONNECTIONS', message: expect.stringMatching(/6 connections from one address/) });
    expect(await refusal('forged-token')).toMatchObject({ ok: false, code: 'TOO_MANY_CONNECTIONS' });
  });

  it("counts one player's messages across all of their sockets", async () => {
    const guest = await newGuest(url);
    const [a, b] = [await client(guest.token), await client(guest.token)];
    const first = await Promise.all(Array.from({ length: 5 }, () => a.request('sync', sync())));
    expect(first.every((ack) => !ack.ok && ack.code === 'MATCH_NOT_FOUND')).toBe(true);
    // A second socket brings no fresh burst.
    expect(await b.request('sync', sync())).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    // Someone else is not limited by it.
    const other = await client((await newGuest(url)).token);
    expect(await other.request('sync', sync())).toMatchObject({ ok: false, code: 'MATCH_NOT_FOUND' });
  });

  it('counts events without an acknowledgement against the limit, and drops them', async () => {
    const guest = await newGuest(url);
    const r = await raw(guest.token);
    for (let i = 0; i < 5; i++) r.send(`42["sync",${JSON.stringify(sync())}]`);
    r.send(`427["sync",${JSON.stringify(sync())}]`);
    expect(await r.ack(7)).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    expect(r.received.filter((frame) => frame.startsWith('43'))).toHaveLength(1);
  });

  it('disconnects a socket that keeps flooding after being limited; its player may connect again', async () => {
    const guest = await newGuest(url);
    const flooder = await client(guest.token);
    const bystander = await client((await newGuest(url)).token);
    const gone = new Promise<string>((resolve) => flooder.socket.once('disconnect', resolve));
    // Five pass, then refusals: past six of them in a burst the server hangs up.
    for (let i = 0; i < 40; i++) (flooder.socket as unknown as { emit(event: string, payload: unknown): void }).emit('sync', sync());
    expect(await gone).toBe('io server disconnect');
    expect(await bystander.request('sync', sync())).toMatchObject({ ok: false, code: 'MATCH_NOT_FOUND' });
    expect(await refusal(guest.token)).toBeUndefined();
  });
});
