import type { PublicPlayer } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { loggedProcess, servicesOn } from '../testing/logged-process.js';
import { readMatchRow } from './match-row.js';
import { loadMatch, matchInclude } from './match-store.js';
import { seatedGuest } from '../testing/seated-guest.js';

describe.each(engines)('the match row in one statement on %s', (engine) => {
  const services = servicesOn(engine);

  /** Prisma's own reading, relation by relation. */
  const included = (matchId: string) => services.db.prisma.match.findUniqueOrThrow({ where: { id: matchId }, include: matchInclude });

  it('is the row Prisma reads with its include, at every stage of a match, through the hot path and inside a transaction', async () => {
    const { matches } = loggedProcess(services.db);
    const [alice, bob] = (await Promise.all([seatedGuest(services.players), seatedGuest(services.players)])).map((g) => g.player) as [PublicPlayer, PublicPlayer];
    const room = await services.rooms.create(alice.id, { rules: { preset: 'classic' }, timeControl: { initialSeconds: 60, incrementSeconds: 2 }, rated: false });
    const { matchId } = room;
    const stages: Array<() => Promise<unknown>> = [
      async () => {},
      () => matches.join(room.code, alice),
      () => matches.join(room.code, bob),
      () => matches.chooseHand(alice, { matchId, choice: 'rock' }),
      () => matches.chooseHand(bob, { matchId, choice: 'rock' }),
      () => matches.chooseHand(bob, { matchId, choice: 'paper' }),
      () => matches.chooseHand(alice, { matchId, choice: 'rock' }),
      () => matches.resign(alice, matchId),
      () => matches.rematch(bob, matchId),
    ];
    for (const stage of stages) {
      await stage();
      const expected = await included(matchId);
      expect(await readMatchRow(services.db.sql, matchId)).toEqual(expected);
      expect(await services.db.prisma.$transaction((tx) => loadMatch(tx, matchId))).toEqual(expected);
    }
    expect((await included(matchId)).rounds).toHaveLength(2);
    expect(await readMatchRow(services.db.sql, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });
});
