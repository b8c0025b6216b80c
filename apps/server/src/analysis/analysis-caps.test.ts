import { PRESETS } from '@oanquan/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { MemoryCounters } from '../limits/counters.js';
import { insertRoom } from '../rooms/room-service.js';
import { migratedDatabase, engines } from '../testing/databases.js';
import { AnalysisService } from './analysis-service.js';

/**
 * The analysis queue per address, on the service itself with nothing working
 * through the queue, so what is asked for stays pending until the test
 * finishes it: one address (ten guests, say) cannot fill the queue for
 * everyone.
 */
describe.each(engines)('analyses per address on %s', (engine) => {
  let db: Database;
  let analyses: AnalysisService;

  beforeAll(async () => {
    db = await migratedDatabase(engine);
    analyses = new AnalysisService(db, { depth: 4, queueMax: 20, perPlayer: 2, perAddress: 3 }, () => {}, new MemoryCounters());
  });
  afterAll(() => db.close());

  /** A new guest and an ended match of theirs. */
  async function endedMatch(): Promise<{ playerId: string; matchId: string }> {
    const [a, b] = await Promise.all([db.prisma.player.create({ data: { name: 'A' } }), db.prisma.player.create({ data: { name: 'B' } })]);
    const { matchId } = await insertRoom(db.prisma, { creatorId: a.id, rules: PRESETS.classic, timeControl: null, rated: false, seats: [a.id, b.id] });
    await db.prisma.match.update({ where: { id: matchId }, data: { status: 'ended', endReason: 'resign', winner: 0, endedAt: new Date() } });
    return { playerId: a.id, matchId };
  }

  it('refuses an address past its pending analyses, whoever asks from it, and not another address', async () => {
    const asked = [];
    for (let i = 0; i < 3; i++) {
      const { playerId, matchId } = await endedMatch();
      expect((await analyses.request(playerId, '203.0.113.7', matchId)).created).toBe(true);
      asked.push(matchId);
    }
    const fourth = await endedMatch();
    await expect(analyses.request(fourth.playerId, '203.0.113.7', fourth.matchId)).rejects.toMatchObject({ code: 'ANALYSIS_BUSY', status: 429 });
    expect(await db.prisma.matchAnalysis.count({ where: { matchId: fourth.matchId } })).toBe(0);
    // A victim elsewhere is not held up by that address.
    const victim = await endedMatch();
    expect((await analyses.request(victim.playerId, '198.51.100.1', victim.matchId)).created).toBe(true);

    // One of the address's analyses is done: it may ask again.
    await db.prisma.matchAnalysis.update({ where: { matchId: asked[0]! }, data: { status: 'done' } });
    expect((await analyses.request(fourth.playerId, '203.0.113.7', fourth.matchId)).created).toBe(true);
  });
});
