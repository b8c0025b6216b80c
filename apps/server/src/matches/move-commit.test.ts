import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { servicesOn } from '../testing/logged-process.js';
import { commitMovesStatement } from './move-commit.js';
import { seatedGuest } from '../testing/seated-guest.js';

/**
 * The plan a connection keeps for the move statement. After five executions
 * a prepared statement may run on its generic plan, costed without its
 * parameters; that is the plan forced here, on a young table of a thousand
 * matches, which the planner would rather scan than look up 100 keys in.
 */
describe.each(engines)('the move statement on %s', (engine) => {
  const services = servicesOn(engine);

  it('finds its matches by key in its cached plan, not by scanning every match', async () => {
    const { player } = await seatedGuest(services.players);
    const room = await services.rooms.create(player.id, { rules: { preset: 'classic' }, timeControl: null, rated: false });
    const { prisma } = services.db;
    await prisma.$executeRawUnsafe(
      `INSERT INTO match (id, room_id, number, rules, position)
       SELECT gen_random_uuid(), room_id, 1 + g, rules, position FROM match, generate_series(1, 1000) AS g WHERE id = $1::uuid`,
      room.matchId,
    );
    const plan = await prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL plan_cache_mode = force_generic_plan`);
      await tx.$executeRawUnsafe(`PREPARE commit_move_plan(jsonb, uuid[]) AS ${commitMovesStatement.text}`);
      const rows = await tx.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(`EXPLAIN EXECUTE commit_move_plan('[]', '{}')`);
      await tx.$executeRawUnsafe('DEALLOCATE commit_move_plan');
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Scan (on|using) match_pkey/);
    expect(plan).not.toMatch(/Seq Scan on match\b/);
  });
});
