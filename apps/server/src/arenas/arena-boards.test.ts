import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { engines, migratedDatabase } from '../testing/databases.js';
import { ArenaBoards } from './arena-boards.js';
import { ArenaService } from './arena-service.js';

describe.each(engines)('the boards kept of arenas on %s', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await migratedDatabase(engine);
  });
  afterAll(() => db.close());

  it('does not take a first read for fresh when a join came while it was under way: the next read brings the join', async () => {
    const maker = await db.prisma.player.create({ data: { name: 'maker', passwordHash: 'x' } });
    const service = new ArenaService(db);
    const { code } = await service.create(maker, { pool: '3+2', rules: { preset: 'classic' }, startsAt: new Date().toISOString(), minutes: 60 });
    const arena = await service.find(code);
    const late = await db.prisma.player.create({ data: { name: 'late', rating: 1500 } });
    // Reads kept fresh for a minute: only a change seen here makes the next read go to the rows.
    const boards = new ArenaBoards(db, 60_000);
    const first = boards.read(code);
    // A join here while the first read is under way; its row is written after that read's (as when its commit lands later).
    boards.changed(code, (board) => board.setEntrant({ playerId: late.id, name: late.name, rating: 1500, active: true, activeSince: new Date(), joinedAt: new Date() }));
    await first;
    await db.prisma.arenaPlayer.create({ data: { arenaId: arena.id, playerId: late.id, rating: 1500, activeSince: new Date() } });
    const { board } = await boards.read(code);
    expect(board.standingOf(late.id)).toMatchObject({ playerId: late.id, active: true });
  });
});
