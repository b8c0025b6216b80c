import { PRESETS } from '@oanquan/rules';
import type { MatchEventEnvelope, PublicPlayer } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { insertRoom } from '../rooms/room-service.js';
import { engines } from '../testing/databases.js';
import { scriptedGame } from '../testing/live.js';
import { servicesOn } from '../testing/logged-process.js';
import { seatedGuest } from '../testing/seated-guest.js';
import { MatchService } from './match-service.js';

/** How long each move's row takes to write: a transaction that is slow between its decision and its commit. */
const SLOW_WRITE_MS = 150;

/**
 * The last move of a rated game goes through the transaction path (its
 * ending is rated there); its event's instants follow docs/protocol.md as
 * the statement path's do: the clocks are as of the event's `at`.
 */
describe.each(engines)('clocks of a move committed in a transaction on %s', (engine) => {
  const services = servicesOn(engine);

  /** `db` whose every move row is written SLOW_WRITE_MS late, as under load. */
  function slowMoves(db: Database): Database {
    const prisma = db.prisma.$extends({
      query: {
        move: {
          async create({ args, query }) {
            await new Promise((resolve) => setTimeout(resolve, SLOW_WRITE_MS));
            return query(args);
          },
        },
      },
    }) as unknown as PrismaClient;
    return { ...db, prisma };
  }

  it('gives the final move of a rated timed game clocks as of its event, however long the rating and the writes took; what was published is what was stored', async () => {
    const published: MatchEventEnvelope[] = [];
    const matches = new MatchService(slowMoves(services.db), (_code, envelopes) => void published.push(...envelopes), 30_000, 30_000);
    const [alice, bob] = (await Promise.all([seatedGuest(services.players), seatedGuest(services.players)])).map((g) => g.player) as [PublicPlayer, PublicPlayer];
    const { matchId } = await insertRoom(services.db.prisma, {
      creatorId: alice.id,
      rules: PRESETS.classic,
      timeControl: { initialSeconds: 600, incrementSeconds: 0 },
      rated: true,
      seats: [alice.id, bob.id],
    });
    await matches.chooseHand(alice, { matchId, choice: 'paper' });
    let version = await matches.chooseHand(bob, { matchId, choice: 'rock' });
    const game = scriptedGame(PRESETS.classic, 0);
    for (const [i, move] of game.entries()) {
      version = await matches.move([alice, bob][i % 2]!, { matchId, moveId: `m${i}`, version, ...move }, new Date());
    }

    const last = published.filter((e) => e.event.type === 'moved').at(-1)!;
    const ended = published.find((e) => e.event.type === 'ended')!;
    if (last.event.type !== 'moved' || !last.event.clocks) throw new Error('expected the timed last move');
    expect(last.event.clocks.running).toBeNull();
    expect(last.event.clocks.asOf).toBe(last.at);
    expect(ended.at).toBe(last.at);
    const stored = await services.db.prisma.matchEvent.findMany({ where: { matchId, version: { in: [last.version, ended.version] } }, orderBy: { version: 'asc' } });
    expect(stored.map((row) => row.payload)).toEqual([last, ended]);
    expect(stored.map((row) => row.createdAt.toISOString())).toEqual([last.at, ended.at]);
    // Every move before it (the statement path) agrees.
    for (const envelope of published) if (envelope.event.type === 'moved' && envelope.event.clocks) expect(envelope.event.clocks.asOf).toBe(envelope.at);
  });
});
