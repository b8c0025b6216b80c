import type { AccountResponse, ErrorBody, MeResponse } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { api, newGuest } from '../testing/live.js';
import { appForSuite } from '../testing/suite-app.js';
import { backfillUsernameSkeletons } from './username-backfill.js';

const PASSWORD = 'long enough';
const decomposed = (text: string) => text.normalize('NFD');

describe.each(engines)('look-alike and invisible names on %s', (engine) => {
  const server = appForSuite(engine);

  const keep = async (username: string) => {
    const guest = await newGuest(server.url);
    const kept = await api<AccountResponse & ErrorBody>(server.url, '/api/account', { token: guest.token, body: { username, password: PASSWORD } });
    const me = await api<MeResponse>(server.url, '/api/me', { token: guest.token });
    return { ...kept, me: me.body };
  };

  it('refuses every look-alike and invisible form of a taken username, and changes nothing', async () => {
    expect((await keep('admin')).status).toBe(201);
    expect((await keep('cepa')).status).toBe(201);
    const refusals: Array<[string, string]> = [
      ['\u0430dmin', 'USERNAME_MIXED_SCRIPTS'],
      ['\u0441\u0435\u0440\u0430', 'USERNAME_LOOKALIKE'],
      ['admin\u034f', 'NAME_INVISIBLE'],
      ['admin\ufe0f', 'NAME_INVISIBLE'],
      ['ａｄｍｉｎ', 'USERNAME_LOOKALIKE'],
      ['𝐚𝐝𝐦𝐢𝐧', 'USERNAME_LOOKALIKE'],
      ['\u3164\u3164\u3164\u3164', 'NAME_INVISIBLE'],
      [`a${'\u0301'.repeat(23)}dmin`, 'NAME_TOO_MANY_MARKS'],
      ['ADMIN', 'USERNAME_TAKEN'],
      ['adrnin', 'USERNAME_LOOKALIKE'],
    ];
    for (const [username, code] of refusals) {
      const refused = await keep(username);
      const status = code === 'USERNAME_TAKEN' || code === 'USERNAME_LOOKALIKE' ? 409 : 400;
      expect(refused, JSON.stringify(username)).toMatchObject({ status, body: { code }, me: { username: null } });
    }
    expect(await server.db.prisma.player.count({ where: { username: { not: null } } })).toBe(2);
  });

  it('keeps a Vietnamese username one name whether composed or not, and apart from its unaccented forms', async () => {
    const kept = await keep(decomposed('Nguyễn_Văn_An'));
    expect(kept).toMatchObject({ status: 201, body: { player: { username: 'Nguyễn_Văn_An', name: 'Nguyễn_Văn_An' } } });
    expect((await keep('NGUYỄN_VĂN_AN')).body.code).toBe('USERNAME_TAKEN');
    const signedIn = await api<AccountResponse>(server.url, '/api/session/login', { body: { username: 'nguyễn_văn_an', password: PASSWORD } });
    expect(signedIn).toMatchObject({ status: 200, body: { player: { username: 'Nguyễn_Văn_An' } } });
    for (const other of ['Nguyen_Van_An', 'Nguyễn_Vân_An', 'Nguyên_Văn_An']) expect((await keep(other)).status, other).toBe(201);
  });

  it('refuses blank-looking and invisible display names, and stores Vietnamese ones composed', async () => {
    const guest = await newGuest(server.url);
    const rename = (name: string) => api<MeResponse & ErrorBody>(server.url, '/api/me', { method: 'PATCH', token: guest.token, body: { name } });
    const refusals: Array<[string, string]> = [
      ['\u3164', 'NAME_INVISIBLE'],
      ['\u2800\u2800\u2800', 'NAME_INVISIBLE'],
      ['\u200b\u200b', 'NAME_INVISIBLE'],
      ['An\u3000Bình', 'NAME_INVISIBLE'],
      ['Lan\u202e', 'NAME_INVISIBLE'],
      ['Lan\ufe0f', 'NAME_INVISIBLE'],
      [`L${'\u0300'.repeat(23)}an`, 'NAME_TOO_MANY_MARKS'],
      ['\u0301Lan', 'NAME_TOO_MANY_MARKS'],
    ];
    for (const [name, code] of refusals) expect(await rename(name), JSON.stringify(name)).toMatchObject({ status: 400, body: { code } });
    expect((await api<MeResponse>(server.url, '/api/me', { token: guest.token })).body.player.name).toBe(guest.player.name);

    const renamed = await rename(decomposed('Nguyễn Văn An'));
    expect(renamed).toMatchObject({ status: 200, body: { player: { name: 'Nguyễn Văn An' } } });
    expect(renamed.body.player.name).toBe(decomposed('Nguyễn Văn An').normalize('NFC'));
    expect((await server.db.prisma.player.findUniqueOrThrow({ where: { id: guest.player.id } })).name).toBe('Nguyễn Văn An');
  });

  it('gives accounts kept before skeletons theirs when a server starts; the first of two old look-alikes holds it', async () => {
    const old = async (username: string) =>
      (await server.db.prisma.player.create({ data: { name: username, username, usernameKey: username.toLowerCase(), passwordHash: '$argon2id$old' } })).id;
    const first = await old('00_old_lan');
    const second = await old('OO_old_lan');
    const alone = await old('old_binh');
    const warnings: unknown[] = [];
    const log = { ...server.app.http.log, warn: (fields: unknown) => warnings.push(fields) } as typeof server.app.http.log;
    expect(await backfillUsernameSkeletons(server.db, log)).toBe(2);
    const skeletons = await server.db.prisma.player.findMany({ where: { id: { in: [first, second, alone] } }, select: { id: true, usernameSkeleton: true } });
    const skeletonOf = (id: string) => skeletons.find((row) => row.id === id)!.usernameSkeleton;
    expect(skeletonOf(alone)).toBe('old_binh');
    expect([skeletonOf(first), skeletonOf(second)].filter((skeleton) => skeleton === null)).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    expect((await keep('O0_old_lan')).body.code).toBe('USERNAME_LOOKALIKE');
    expect(await backfillUsernameSkeletons(server.db, log)).toBe(0);
  });
});
