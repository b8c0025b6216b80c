import type { ErrorBody, MatchList } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { newGuest, startApp } from '../testing/live.js';

const cursor = (text: string) => Buffer.from(text).toString('base64url');

/** Query strings of GET /api/matches that must be refused, each with why. */
const badListQueries: Array<[string, string]> = [
  ['year 0 and the nil uuid', `before=${cursor('0000-01-01T00:00:00.000Z|00000000-0000-0000-0000-000000000000')}`],
  ['a date and 36 dashes', `before=${cursor(`2026-01-01T00:00:00.000Z|${'-'.repeat(36)}`)}`],
  ['a date past year 9999', `before=${cursor('+275760-09-13T00:00:00.000Z|4b0e5a0e-9c1d-4f7e-8a3b-2c6d7e8f9a0b')}`],
  ['a date before 1970', `before=${cursor('1969-12-31T23:59:59.999Z|4b0e5a0e-9c1d-4f7e-8a3b-2c6d7e8f9a0b')}`],
  ['an impossible day', `before=${cursor('2026-02-30T00:00:00.000Z|4b0e5a0e-9c1d-4f7e-8a3b-2c6d7e8f9a0b')}`],
  ['a third part', `before=${cursor('2026-01-01T00:00:00.000Z|4b0e5a0e-9c1d-4f7e-8a3b-2c6d7e8f9a0b|x')}`],
  ['an uppercase-free non-hex id', `before=${cursor('2026-01-01T00:00:00.000Z|zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz')}`],
  ['not base64 at all', 'before=%00%01'],
  ['an empty cursor', 'before='],
  ['two cursors', `before=a&before=b`],
  ['a status that is not one', 'status=all'],
  ['a player that is not a uuid', 'player=1%27%20OR%201=1'],
  ['a fractional limit', 'limit=2.5'],
  ['a zero limit', 'limit=0'],
  ['an endless limit', 'limit=Infinity'],
  ['an unknown parameter', 'offset=10'],
];

/** Every REST route with bodies, params and headers it must refuse. */
function badRequests(token: string): Array<{ what: string; method: string; path: string; body?: string; headers?: Record<string, string> }> {
  const json = { 'content-type': 'application/json' };
  const auth = { ...json, authorization: `Bearer ${token}` };
  const deep = '['.repeat(20_000) + ']'.repeat(20_000);
  const bodies = ['null', '[]', '"rooms"', '42', 'true', '{"__proto__":{"rated":true}}', '{"constructor":{"prototype":{}}}', deep, '{"rules":', ''];
  return [
    ...bodies.map((body) => ({ what: `POST /api/rooms ${body.slice(0, 30)}`, method: 'POST', path: '/api/rooms', body, headers: auth })),
    ...bodies.map((body) => ({ what: `PATCH /api/me ${body.slice(0, 30)}`, method: 'PATCH', path: '/api/me', body, headers: auth })),
    { what: 'POST /api/rooms as text', method: 'POST', path: '/api/rooms', body: '{}', headers: { 'content-type': 'text/plain', authorization: `Bearer ${token}` } },
    { what: 'POST /api/rooms with a rated string', method: 'POST', path: '/api/rooms', body: '{"rated":"yes"}', headers: auth },
    { what: 'POST /api/rooms with null rules', method: 'POST', path: '/api/rooms', body: '{"rules":null}', headers: auth },
    { what: 'POST /api/rooms with a huge clock', method: 'POST', path: '/api/rooms', body: '{"timeControl":{"initialSeconds":1e308,"incrementSeconds":0}}', headers: auth },
    { what: 'POST /api/rooms with a ply limit of NaN-ish', method: 'POST', path: '/api/rooms', body: '{"rules":{"options":{"plyLimit":-0.5}}}', headers: auth },
    { what: 'PATCH /api/me with a number name', method: 'PATCH', path: '/api/me', body: '{"name":7}', headers: auth },
    { what: 'PATCH /api/me with a forged token', method: 'PATCH', path: '/api/me', body: '{"name":"A"}', headers: { ...json, authorization: 'Bearer forged' } },
    { what: 'GET /api/me with an oversized token', method: 'GET', path: '/api/me', headers: { authorization: `Bearer ${'x'.repeat(4000)}` } },
    { what: 'GET /api/me with another scheme', method: 'GET', path: '/api/me', headers: { authorization: `Basic ${token}` } },
    { what: 'POST /api/session with broken JSON', method: 'POST', path: '/api/session', body: '{', headers: json },
    { what: 'GET /api/rooms/ with a long code', method: 'GET', path: `/api/rooms/${'A'.repeat(300)}` },
    { what: 'GET /api/rooms/ with bad percent-encoding', method: 'GET', path: '/api/rooms/%E0%A4%A' },
    { what: 'GET /api/rooms/ with a quote', method: 'GET', path: "/api/rooms/abc'def12" },
    { what: 'GET /api/matches/ with a non-uuid', method: 'GET', path: '/api/matches/123' },
    { what: 'GET /api/matches/ with dashes', method: 'GET', path: `/api/matches/${'-'.repeat(36)}` },
    { what: 'GET /api/matches/ of no match', method: 'GET', path: '/api/matches/4b0e5a0e-9c1d-4f7e-8a3b-2c6d7e8f9a0b' },
    { what: 'GET /api/matches/…/record with a non-uuid', method: 'GET', path: '/api/matches/zz/record' },
    { what: 'GET /api/players/ with a non-uuid', method: 'GET', path: '/api/players/%00' },
    { what: 'GET /api/players/ of no one', method: 'GET', path: '/api/players/4b0e5a0e-9c1d-4f7e-8a3b-2c6d7e8f9a0b' },
    { what: 'DELETE /api/rooms', method: 'DELETE', path: '/api/rooms' },
    { what: 'GET /api/nothing', method: 'GET', path: '/api/nothing' },
    ...badListQueries.map(([what, query]) => ({ what: `GET /api/matches with ${what}`, method: 'GET', path: `/api/matches?${query}` })),
  ];
}

describe.each(engines)('bad input over REST on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine));
  });
  afterAll(() => app.close());

  it('refuses forged page cursors of GET /api/matches with 400 BAD_REQUEST', async () => {
    for (const [what, query] of badListQueries.slice(0, 7)) {
      const response = await fetch(`${url}/api/matches?${query}`);
      expect({ what, status: response.status, body: await response.json() }).toMatchObject({ what, status: 400, body: { ok: false, code: 'BAD_REQUEST' } });
    }
    const live = await fetch(`${url}/api/matches?status=live&before=${cursor('0000-01-01T00:00:00.000Z|00000000-0000-0000-0000-000000000000')}`);
    expect(live.status).toBe(400);
    // A cursor the server wrote itself still pages.
    const ok = await fetch(`${url}/api/matches?before=${cursor('2026-01-01T00:00:00.000Z|4b0e5a0e-9c1d-4f7e-8a3b-2c6d7e8f9a0b')}`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as MatchList).matches).toEqual([]);
  });

  it('does not make a room from a null, array or string body', async () => {
    const { token } = await newGuest(url);
    const before = await db.prisma.room.count();
    for (const body of ['null', '[]', '"x"', '0']) {
      const response = await fetch(`${url}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body });
      expect({ body, status: response.status, answer: await response.json() }).toMatchObject({ body, status: 400, answer: { ok: false, code: 'BAD_REQUEST' } });
    }
    expect(await db.prisma.room.count()).toBe(before);
    // No body at all still means "all defaults".
    const plain = await fetch(`${url}/api/rooms`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(plain.status).toBe(201);
  });

  it('answers every bad body, parameter and query of every route with a 4xx ErrorBody, never a 500', async () => {
    const { token, player } = await newGuest(url);
    const rooms = await db.prisma.room.count();
    for (const request of badRequests(token)) {
      const response = await fetch(url + request.path, { method: request.method, headers: request.headers, body: request.body });
      const text = await response.text();
      const outcome = { what: request.what, status: response.status, json: response.headers.get('content-type')?.startsWith('application/json') };
      expect(outcome).toEqual({ ...outcome, status: expect.toSatisfy((s: number) => s >= 400 && s < 500), json: true });
      const body = JSON.parse(text) as ErrorBody;
      expect({ what: request.what, ok: body.ok, code: typeof body.code, message: typeof body.message }).toEqual({ what: request.what, ok: false, code: 'string', message: 'string' });
    }
    expect(await db.prisma.room.count()).toBe(rooms);
    expect(await db.prisma.player.findUnique({ where: { id: player.id }, select: { name: true } })).toEqual({ name: player.name });
  });
});
