import type { ErrorBody, MatchList, PlayerProfile } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, newAccount, newGuest, startApp } from '../testing/live.js';

describe.each(engines)('a player’s profile on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine));
  });
  afterAll(() => app.close());

  it('splits the record by who moved first, draws the rating history, and filters the matches', async () => {
    const me = await newAccount(url);
    const other = await newGuest(url);
    // They have played, so they have their row.
    await db.prisma.player.create({ data: other.player });
    const room = await db.prisma.room.create({ data: { code: `prof${engine.slice(0, 4)}`, rules: {} } });
    let number = 0;
    const ended = (seat: 0 | 1, first: 0 | 1, winner: 0 | 1 | null, extra: { endReason?: string; rated?: { at: Date; after: number } } = {}) =>
      db.prisma.match.create({
        data: {
          roomId: room.id,
          number: ++number,
          status: 'ended',
          rules: {},
          position: {},
          player0Id: seat === 0 ? me.player.id : other.player.id,
          player1Id: seat === 0 ? other.player.id : me.player.id,
          first,
          winner,
          endReason: extra.endReason ?? (winner === null ? 'score' : 'resign'),
          endedAt: new Date(Date.now() - 1000 * (100 - number)),
          rated: extra.rated !== undefined,
          ratedAt: extra.rated?.at ?? null,
          ratingChanges: extra.rated ? (seat === 0 ? [{ before: 0, after: extra.rated.after }, { before: 0, after: 1 }] : [{ before: 0, after: 1 }, { before: 0, after: extra.rated.after }]) : undefined,
        },
      });
    // Moved first: won as seat 0, won as seat 1, drew. Moved second: lost as seat 0. An abort counts nowhere.
    await ended(0, 0, 0, { rated: { at: new Date('2026-11-01T10:00:00Z'), after: 1580 } });
    await ended(1, 1, 1, { rated: { at: new Date('2026-11-02T10:00:00Z'), after: 1640 } });
    await ended(0, 0, null);
    await ended(0, 1, 1, { rated: { at: new Date('2026-11-03T10:00:00Z'), after: 1610 } });
    await ended(1, 1, null, { endReason: 'abort' });

    const profile = (await api<PlayerProfile>(url, `/api/players/${me.player.id}`)).body;
    expect(profile.account).toBe(true);
    expect(profile.botLevel).toBeNull();
    expect(profile.record).toEqual({ wins: 2, losses: 1, draws: 1 });
    expect(profile.byFirstMove).toEqual({ first: { wins: 2, losses: 0, draws: 1 }, second: { wins: 0, losses: 1, draws: 0 } });
    expect(profile.ratingHistory).toEqual([
      { at: '2026-11-01T10:00:00.000Z', rating: 1580 },
      { at: '2026-11-02T10:00:00.000Z', rating: 1640 },
      { at: '2026-11-03T10:00:00.000Z', rating: 1610 },
    ]);
    expect((await api<PlayerProfile>(url, `/api/players/${other.player.id}`)).body).toMatchObject({ account: false, byFirstMove: { first: { wins: 1, losses: 0, draws: 0 }, second: { wins: 0, losses: 2, draws: 1 } } });

    const list = async (query: string) => (await api<MatchList>(url, `/api/matches?player=${me.player.id}&${query}`)).body.matches.map((m) => [m.rated, m.result?.winner ?? null]);
    expect(await list('result=win')).toEqual([[true, 1], [true, 0]]);
    expect(await list('result=loss')).toEqual([[true, 1]]);
    expect(await list('result=draw')).toEqual([[false, null]]);
    expect(await list('rated=true')).toHaveLength(3);
    expect(await list('rated=false')).toHaveLength(2);
    expect(await list('rated=false&result=draw')).toEqual([[false, null]]);
    expect(await api<ErrorBody>(url, '/api/matches?result=win')).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    expect(await api<ErrorBody>(url, `/api/matches?player=${me.player.id}&rated=yes`)).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
  });
});
