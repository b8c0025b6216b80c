import { PRESETS } from '@oanquan/rules';
import type { ErrorBody, MeResponse, RoomResponse } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { api, newGuest, startApp } from '../testing/live.js';

describe('sessions and rooms over REST', () => {
  let url: string;
  let app: App;
  beforeAll(async () => {
    ({ url, app } = await startApp('pglite'));
  });
  afterAll(() => app.close());

  it('makes a guest with a generated name and a signed token, who can rename themselves', async () => {
    const guest = await newGuest(url);
    expect(guest.token).toMatch(/^g\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(guest.player.name.length).toBeGreaterThan(0);
    expect((await api<MeResponse>(url, '/api/me', { token: guest.token })).body.player).toEqual(guest.player);

    const renamed = await api<MeResponse>(url, '/api/me', { method: 'PATCH', token: guest.token, body: { name: '  Bà Tư  ' } });
    expect(renamed.body.player).toEqual({ id: guest.player.id, name: 'Bà Tư' });
    for (const [name, code] of [['', 'BAD_REQUEST'], ['x'.repeat(25), 'BAD_REQUEST'], ['bad\u0007name', 'NAME_INVISIBLE']]) {
      const refused = await api<ErrorBody>(url, '/api/me', { method: 'PATCH', token: guest.token, body: { name } });
      expect(refused).toMatchObject({ status: 400, body: { ok: false, code } });
    }
    expect((await api(url, '/api/me', { method: 'PATCH', body: { name: 'Nobody' } })).status).toBe(401);
  });

  it('creates rooms from a preset or explicit options and describes them; bad requests change nothing', async () => {
    const { token } = await newGuest(url);
    const vietnam = await api<RoomResponse>(url, '/api/rooms', { token, body: { rules: { preset: 'vietnam' }, timeControl: { initialSeconds: 300, incrementSeconds: 3 } } });
    expect(vietnam.status).toBe(201);
    expect(vietnam.body).toMatchObject({ rules: PRESETS.vietnam, timeControl: { initialSeconds: 300, incrementSeconds: 3 }, status: 'waiting', rated: false, seats: [null, null] });
    expect(vietnam.body.url).toBe(`/r/${vietnam.body.code}`);
    expect((await api<RoomResponse>(url, `/api/rooms/${vietnam.body.code}`)).body).toEqual(vietnam.body);

    const custom = await api<RoomResponse>(url, '/api/rooms', { token, body: { rules: { options: { quanValue: 5, plyLimit: 200 } } } });
    expect(custom.body.rules).toEqual({ ...PRESETS.classic, quanValue: 5, plyLimit: 200 });

    for (const body of [{ rules: { options: { quanValue: 7 } } }, { rules: { preset: 'blitz' } }, { timeControl: { initialSeconds: -1, incrementSeconds: 0 } }, { extra: 1 }]) {
      expect(await api(url, '/api/rooms', { token, body })).toMatchObject({ status: 400, body: { ok: false, code: 'BAD_REQUEST' } });
    }
    expect((await api(url, '/api/rooms', { body: {} })).status).toBe(401);
    expect(await api(url, '/api/rooms/NoSuchRoom1')).toMatchObject({ status: 404, body: { code: 'ROOM_NOT_FOUND' } });
    expect(await api(url, '/api/rooms/bad!code')).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
  });

  it('answers a malformed or oversized JSON body with a clear error', async () => {
    const { token } = await newGuest(url);
    const broken = await fetch(`${url}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{"rules":' });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    const huge = await fetch(`${url}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ pad: 'x'.repeat(100_000) }) });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ ok: false, code: 'PAYLOAD_TOO_LARGE' });
  });
});
