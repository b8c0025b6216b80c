import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { loggedDatabase, refusal, servicesOn } from '../testing/logged-process.js';
import { seatedGuest } from '../testing/seated-guest.js';
import { PlayerService } from './player-service.js';

/** Every socket and request starts by naming its player from a token: one prepared statement, and Prisma only for the touch. */
describe.each(engines)('identifying a token on %s', (engine) => {
  const services = servicesOn(engine);

  it('reads the session and its player in one statement, and refuses what is not live', async () => {
    const { db, log } = loggedDatabase(services.db);
    const players = new PlayerService(db);
    const player = (await seatedGuest(services.players)).player;
    const guest = { player, ...(await services.players.sessions.open(player.id)) };
    const mark = log.length;
    const identity = await players.identify(guest.token);
    expect(log.slice(mark)).toEqual(['sql session-read']);
    expect(identity).toMatchObject({ player: guest.player, session: { id: guest.session.id, playerId: guest.player.id }, username: null });
    expect(identity.session?.expiresAt).toEqual(guest.session.expiresAt);

    // Unused for over a minute: the expiry moves forward, through the touch.
    await services.db.prisma.session.update({ where: { id: guest.session.id }, data: { lastSeenAt: new Date(Date.now() - 120_000) } });
    const touchMark = log.length;
    const touched = await players.identify(guest.token);
    expect(log.slice(touchMark)).toEqual(['sql session-read', 'prisma Session.updateMany']);
    expect(touched.session!.expiresAt.getTime()).toBeGreaterThan(guest.session.expiresAt.getTime());

    await services.db.prisma.session.update({ where: { id: guest.session.id }, data: { revokedAt: new Date() } });
    expect(await refusal(players.identify(guest.token))).toBe('UNAUTHORIZED');
    expect(await refusal(players.identify('forged'))).toBe('UNAUTHORIZED');
  });

  it('knows the reader of public standings from a guest token without a query, and refuses an altered one', async () => {
    const { db, log } = loggedDatabase(services.db);
    const players = new PlayerService(db);
    const guest = await seatedGuest(services.players);
    // The signing key is read once per process.
    await players.readerOf(guest.token);
    const mark = log.length;
    expect(await players.readerOf(guest.token)).toBe(guest.player.id);
    expect(log.slice(mark)).toEqual([]);
    expect(await refusal(players.readerOf(`${guest.token.slice(0, -2)}xx`))).toBe('UNAUTHORIZED');
    // An account's session is read as any act's is.
    const session = await services.players.sessions.open(guest.player.id);
    const sessionMark = log.length;
    expect(await players.readerOf(session.token)).toBe(guest.player.id);
    expect(log.slice(sessionMark)).toEqual(['sql session-read']);
    expect(await refusal(players.readerOf('forged'))).toBe('UNAUTHORIZED');
  });

  it('keeps a guest token found intact, and still refuses it once expired', async () => {
    const guest = await services.players.newGuest();
    const { guests } = services.players;
    const claims = await guests.verify(guest.token);
    expect(claims).toMatchObject({ player: guest.player });
    // Kept, not shared: what a caller does to its copy changes nothing.
    claims!.player.name = 'changed';
    expect(await guests.verify(guest.token)).toMatchObject({ player: guest.player });
    expect(await guests.verify(guest.token, new Date(claims!.expiresAt.getTime() + 1))).toBeNull();
    expect(await guests.verify(`${guest.token.slice(0, -2)}AA`)).toBeNull();
  });
});
