import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AccountResponse, ErrorBody, MeResponse } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { paths } from '../config.js';
import { engines } from '../testing/databases.js';
import { api, newGuest } from '../testing/live.js';
import { appForSuite } from '../testing/suite-app.js';
import { backfillUsernameSkeletons } from './username-backfill.js';
import { usernameSkeleton } from './username-forms.js';

const PASSWORD = 'long enough';
const decomposed = (text: string) => text.normalize('NFD');
const CHEROKEE_ADMIN = '\u13aa\u13a0\u13b7\u13a5\u13c1';

describe.each(engines)('look-alike and invisible names on %s', (engine) => {
  const server = appForSuite(engine);

  const keep = async (username: string) => {
    const guest = await newGuest(server.url);
    const kept = await api<AccountResponse & ErrorBody>(server.url, '/api/account', { token: guest.token, body: { username, password: PASSWORD } });
    const me = await api<MeResponse>(server.url, '/api/me', { token: guest.token });
    return { ...kept, me: me.body, token: kept.body.token! };
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

  it('refuses a capital I for l, a dotted dotless i, small capitals and Cherokee as look-alikes of taken usernames', async () => {
    expect((await keep('million8367')).status).toBe(201);
    expect((await keep('admin8367')).status).toBe(201);
    const refusals: Array<[string, number, string]> = [
      ['miIIion8367', 409, 'USERNAME_LOOKALIKE'],
      ['MiIlion8367', 409, 'USERNAME_LOOKALIKE'],
      ['adm\u0131\u0307n8367', 409, 'USERNAME_LOOKALIKE'],
      ['\u1d00dmin8367', 409, 'USERNAME_LOOKALIKE'],
      [`${CHEROKEE_ADMIN}8367`, 400, 'NAME_UNCOMMON_SCRIPT'],
    ];
    for (const [username, status, code] of refusals) expect(await keep(username), JSON.stringify(username)).toMatchObject({ status, body: { code }, me: { username: null } });
    expect(await server.db.prisma.player.count({ where: { username: { endsWith: '8367' } } })).toBe(2);
  });

  it("refuses a display name that is, or looks like, another player's username, for guests and accounts alike", async () => {
    const owner = await keep('owner8367');
    const rename = (token: string, name: string) => api<MeResponse & ErrorBody>(server.url, '/api/me', { method: 'PATCH', token, body: { name } });
    const guest = await newGuest(server.url);
    const account = await keep('someone8367');
    const lookalikes = ['owner8367', 'OWNER8367', '\u043ewner8367', 'owner8З67', '\u1d0fwner8367'];
    for (const token of [guest.token, account.token]) {
      for (const name of lookalikes) expect(await rename(token, name), `${token} ${name}`).toMatchObject({ status: 409, body: { code: 'NAME_LOOKS_LIKE_USERNAME' } });
      expect(await rename(token, `${CHEROKEE_ADMIN}8367`)).toMatchObject({ status: 400, body: { code: 'NAME_UNCOMMON_SCRIPT' } });
    }
    expect((await api<MeResponse>(server.url, '/api/me', { token: guest.token })).body.player.name).toBe(guest.player.name);
    expect((await api<MeResponse>(server.url, '/api/me', { token: account.token })).body.player.name).toBe('someone8367');
    // One's own username, in any case or look, stays one's own to show.
    expect(await rename(owner.token, 'Owner8367')).toMatchObject({ status: 200, body: { player: { name: 'Owner8367' } } });
  });

  it('lets Vietnamese display names through beside accounts whose usernames differ only in accents', async () => {
    expect((await keep('Le_Van_Tam')).status).toBe(201);
    expect((await keep('Tran_Thi_Mai')).status).toBe(201);
    for (const name of ['Nguyễn Văn An', 'Lê_Văn_Tâm', 'Trần_Thị_Mai', 'Đặng Thùy Dương']) {
      const guest = await newGuest(server.url);
      const renamed = await api<MeResponse>(server.url, '/api/me', { method: 'PATCH', token: guest.token, body: { name } });
      expect(renamed, name).toMatchObject({ status: 200, body: { player: { name } } });
    }
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

  it('makes every skeleton again by the current rules once the migration that changed them has emptied them', async () => {
    // Skeletons as the rules before it made them: lowercased first, so the capital I of "Ian" was an i, and "lan" passed.
    const kept = async (username: string, oldSkeleton: string) =>
      (await server.db.prisma.player.create({ data: { name: username, username, usernameKey: username.toLowerCase(), usernameSkeleton: oldSkeleton, passwordHash: '$argon2id$old' } })).id;
    const ids = [await kept('Ian_old', 'ian_old'), await kept('deer_old', 'deer_old')];
    const migration = await readFile(path.join(paths.migrations, '20261207114500_username_skeleton_case_as_written', 'migration.sql'), 'utf8');
    await server.db.prisma.$executeRawUnsafe(migration);
    expect(await server.db.prisma.player.count({ where: { usernameSkeleton: { not: null } } })).toBe(0);
    await backfillUsernameSkeletons(server.db, { ...server.app.http.log, warn: () => undefined } as typeof server.app.http.log);
    // Every account has its skeleton by the current rules, or, of two that now look alike, the other one holds it.
    const accounts = await server.db.prisma.player.findMany({ where: { username: { not: null } }, select: { username: true, usernameSkeleton: true } });
    const held = new Set(accounts.map((row) => row.usernameSkeleton));
    for (const row of accounts) expect(row.usernameSkeleton ?? (held.has(usernameSkeleton(row.username!)) ? null : 'unheld'), row.username!).toBe(row.usernameSkeleton === null ? null : usernameSkeleton(row.username!));
    const rows = await server.db.prisma.player.findMany({ where: { id: { in: ids } }, select: { username: true, usernameSkeleton: true } });
    expect(rows.map((row) => [row.username, row.usernameSkeleton]).sort()).toEqual([
      ['Ian_old', 'lan_old'],
      ['deer_old', 'deer_old'],
    ]);
    expect((await keep('lan_old')).body.code).toBe('USERNAME_LOOKALIKE');
  });
});
