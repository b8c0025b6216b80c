import { ErrorCode, type PublicPlayer } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { loggedProcess, refusal, servicesOn } from '../testing/logged-process.js';
import type { MatchService } from './match-service.js';
import { seatedGuest } from '../testing/seated-guest.js';

/**
 * The rematch without a transaction: the ended match read in one statement,
 * the offer or the acceptance (with the new match) committed in one more,
 * and still one new match however the two players' requests race.
 */
describe.each(engines)('the rematch path on %s', (engine) => {
  const services = servicesOn(engine);

  /** A timed match Alice and Bob played until Bob resigned. */
  async function ended(matches: MatchService): Promise<{ matchId: string; code: string; alice: PublicPlayer; bob: PublicPlayer }> {
    const [alice, bob] = (await Promise.all([seatedGuest(services.players), seatedGuest(services.players)])).map((g) => g.player) as [PublicPlayer, PublicPlayer];
    const room = await services.rooms.create(alice.id, { rules: { preset: 'classic' }, timeControl: { initialSeconds: 60, incrementSeconds: 2 }, rated: false });
    await matches.join(room.code, alice);
    await matches.join(room.code, bob);
    await matches.chooseHand(alice, { matchId: room.matchId, choice: 'paper' });
    await matches.chooseHand(bob, { matchId: room.matchId, choice: 'rock' });
    await matches.resign(bob, room.matchId);
    return { matchId: room.matchId, code: room.code, alice, bob };
  }

  const stored = async (matchId: string) => ({
    match: await services.db.prisma.match.findUniqueOrThrow({ where: { id: matchId } }),
    events: await services.db.prisma.matchEvent.findMany({ where: { matchId }, orderBy: { version: 'asc' } }),
  });

  it('an offer and its acceptance take one read and one statement each; asking again changes nothing; the new match is the one the rows hold', async () => {
    const { matches, log, since } = loggedProcess(services.db);
    const { matchId, code, alice, bob } = await ended(matches);
    const before = (await stored(matchId)).match.version;

    let mark = log.length;
    expect(await matches.rematch(alice, matchId)).toBe(before + 1);
    expect(since(mark)).toEqual(['sql match-row', 'sql commit-rematch']);
    mark = log.length;
    expect(await matches.rematch(alice, matchId)).toBe(before + 1);
    expect(since(mark)).toEqual(['sql match-row']);
    mark = log.length;
    expect(await matches.rematch(bob, matchId)).toBe(before + 3);
    expect(since(mark)).toEqual(['sql match-row', 'sql commit-rematch']);

    const { match, events } = await stored(matchId);
    expect(match).toMatchObject({ version: before + 3, rematch0: true, rematch1: true, status: 'ended' });
    expect(events.map((e) => e.version)).toEqual(Array.from({ length: before + 3 }, (_, i) => i + 1));
    expect(events.slice(-3).map((e) => e.payload)).toMatchObject([
      { event: { type: 'rematch-offered', seat: 0 } },
      { event: { type: 'rematch-offered', seat: 1 } },
      { event: { type: 'rematch', matchId: match.nextMatchId } },
    ]);
    const next = await services.db.prisma.match.findUniqueOrThrow({ where: { id: match.nextMatchId! } });
    expect(next).toMatchObject({ status: 'opener', number: 2, version: 0, player0Id: alice.id, player1Id: bob.id, rated: false, rules: match.rules, first: null });

    // What this process holds of the new match is what another reads from the rows.
    const held = await matches.join(code, alice);
    const read = await loggedProcess(services.db).matches.join(code, alice);
    expect(held).toEqual(read);
    expect(held.snapshot).toMatchObject({ matchId: next.id, status: 'opener', version: 0 });
  });

  it('refuses as the transaction does (a spectator, a match not ended) and writes nothing', async () => {
    const { matches } = loggedProcess(services.db);
    const { matchId, alice } = await ended(matches);
    const carol = (await seatedGuest(services.players)).player;
    const before = await stored(matchId);
    expect(await refusal(matches.rematch(carol, matchId))).toBe(ErrorCode.NotAPlayer);
    expect(await stored(matchId)).toEqual(before);

    const room = await services.rooms.create(alice.id, { rules: { preset: 'classic' }, timeControl: null, rated: false });
    await matches.join(room.code, alice);
    expect(await refusal(matches.rematch(alice, room.matchId))).toBe(ErrorCode.NotAllowedNow);
  });

  it('both players asking at the same moment through two processes: both offers count and exactly one new match is made, without a transaction', async () => {
    for (let i = 0; i < 4; i++) {
      const a = loggedProcess(services.db);
      const b = loggedProcess(services.db);
      const { matchId, alice, bob } = await ended(a.matches);
      const racers = [() => a.matches.rematch(alice, matchId), () => b.matches.rematch(bob, matchId)];
      if (i % 2) racers.reverse();
      const marks = [a.log.length, b.log.length];
      await Promise.all(racers.map((race) => race()));
      // The one that lost the race read again and accepted: no transaction either side.
      expect([...a.since(marks[0]!), ...b.since(marks[1]!)].filter((s) => s.startsWith('prisma'))).toEqual([]);
      const { match, events } = await stored(matchId);
      expect(match).toMatchObject({ rematch0: true, rematch1: true });
      expect(match.nextMatchId).not.toBeNull();
      expect(await services.db.prisma.match.count({ where: { roomId: match.roomId } })).toBe(2);
      expect(events.map((e) => e.version)).toEqual(Array.from({ length: match.version }, (_, i) => i + 1));
      expect(events.filter((e) => (e.payload as { event: { type: string } }).event.type === 'rematch')).toHaveLength(1);
    }
  });
});
