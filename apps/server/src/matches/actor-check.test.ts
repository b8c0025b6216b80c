import type { PublicPlayer } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { PlayerService } from '../players/player-service.js';
import { RoomService } from '../rooms/room-service.js';
import { engines, migratedDatabase } from '../testing/databases.js';
import { MatchService } from './match-service.js';
import { seatedGuest } from '../testing/seated-guest.js';

/**
 * The race of the attack report: a spectator's action sent the moment a
 * clock runs out, before any sweeper acts. The service's clock is ours to
 * move, so "the moment" is exact; no sweeper runs here at all.
 */
describe.each(engines)('every action checks its actor first, on %s', (engine) => {
  let db: Database;
  let now = new Date();
  let matches: MatchService;
  let rooms: RoomService;
  let players: PlayerService;

  beforeAll(async () => {
    db = await migratedDatabase(engine);
    matches = new MatchService(db, async () => {}, 30_000, 30_000, () => now);
    rooms = new RoomService(db);
    players = new PlayerService(db);
  });
  afterAll(async () => {
    await db.close();
  });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: { code?: string }) => error.code,
    );

  /** A timed match in which seat 0 made the first move, so seat 1's clock runs. */
  async function flaggable(): Promise<{ matchId: string; alice: PublicPlayer; bob: PublicPlayer; carol: PublicPlayer }> {
    now = new Date();
    const [alice, bob, carol] = (await Promise.all([seatedGuest(players), seatedGuest(players), seatedGuest(players)])).map((g) => g.player) as [PublicPlayer, PublicPlayer, PublicPlayer];
    const room = await rooms.create(alice.id, { rules: { preset: 'classic' }, timeControl: { initialSeconds: 1, incrementSeconds: 0 }, rated: false });
    await matches.join(room.code, alice);
    await matches.join(room.code, bob);
    await matches.join(room.code, carol);
    await matches.chooseHand(alice, { matchId: room.matchId, choice: 'paper' });
    const version = await matches.chooseHand(bob, { matchId: room.matchId, choice: 'rock' });
    await matches.move(alice, { matchId: room.matchId, moveId: 'a1', version, square: 1, dir: 1 }, now);
    return { matchId: room.matchId, alice, bob, carol };
  }

  it("a spectator's resign, abort, claim, move, hand or rematch at the moment the clock has flagged is refused as NOT_A_PLAYER and changes nothing", async () => {
    const { matchId, carol, alice } = await flaggable();
    const before = await db.prisma.match.findUniqueOrThrow({ where: { id: matchId } });
    expect(before.status).toBe('playing');
    // Seat 1's 1 s clock starts after the first move's sowing allowance; half a second past its end it has flagged.
    now = new Date(before.turnStartedAt!.getTime() + 1500);

    expect(await refusal(matches.resign(carol, matchId))).toBe('NOT_A_PLAYER');
    expect(await refusal(matches.abort(carol, matchId))).toBe('NOT_A_PLAYER');
    expect(await refusal(matches.claim(carol, matchId, () => new Date(0)))).toBe('NOT_A_PLAYER');
    expect(await refusal(matches.move(carol, { matchId, moveId: 'c1', version: before.version, square: 7, dir: 1 }, now))).toBe('NOT_A_PLAYER');
    expect(await refusal(matches.chooseHand(carol, { matchId, choice: 'rock' }))).toBe('NOT_A_PLAYER');
    expect(await refusal(matches.rematch(carol, matchId))).toBe('NOT_A_PLAYER');

    const after = await db.prisma.match.findUniqueOrThrow({ where: { id: matchId } });
    expect({ status: after.status, version: after.version }).toEqual({ status: 'playing', version: before.version });
    expect(await db.prisma.matchEvent.count({ where: { matchId } })).toBe(before.version);

    // A seated player's action at that moment ends the match by the flag, as before.
    await matches.resign(alice, matchId);
    expect(await db.prisma.match.findUniqueOrThrow({ where: { id: matchId } })).toMatchObject({ status: 'ended', winner: 0, endReason: 'timeout' });
  });

  it('a spectator is told NOT_A_PLAYER in every phase, before anything about the phase', async () => {
    const { matchId, carol, alice } = await flaggable();
    await matches.resign(alice, matchId);
    for (const action of [matches.resign(carol, matchId), matches.abort(carol, matchId), matches.rematch(carol, matchId), matches.chooseHand(carol, { matchId, choice: 'paper' })]) {
      expect(await refusal(action)).toBe('NOT_A_PLAYER');
    }
  });
});
