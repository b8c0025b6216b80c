import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { engines, migratedDatabase } from '../testing/databases.js';
import { ArenaBoard } from './arena-board.js';
import { ArenaService } from './arena-service.js';
import { refreshBoard, type ArenaGameRow } from './arena-store.js';

describe.each(engines)('an arena board brought up to the rows on %s', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await migratedDatabase(engine);
  });
  afterAll(() => db.close());

  /** The database, counting the entrant rows each read of them answers. */
  function counting() {
    const reads: number[] = [];
    const reader = {
      $queryRaw: (async (query: TemplateStringsArray, ...values: unknown[]) => {
        const rows = (await db.prisma.$queryRaw(query, ...values)) as unknown[];
        if (query.join('').includes('FROM arena_player')) reads.push(rows.length);
        return rows;
      }) as Database['prisma']['$queryRaw'],
    };
    return { reader, reads };
  }

  it('reads only the entrants who joined or paused since its last read, and all of them once a minute', async () => {
    let t = Date.UTC(2026, 5, 1, 12);
    const now = () => new Date(t);
    const maker = await db.prisma.player.create({ data: { name: 'maker', passwordHash: 'x' } });
    const service = new ArenaService(db, now);
    const { code } = await service.create(maker, { pool: '3+2', rules: { preset: 'classic' }, startsAt: now().toISOString(), minutes: 60 });
    const arena = await service.find(code);
    const people = await Promise.all(Array.from({ length: 30 }, (_, i) => db.prisma.player.create({ data: { name: `e${i}`, rating: 1500 } })));
    for (const p of people.slice(0, 29)) await service.join(code, p);
    const { reader, reads } = counting();
    const board = new ArenaBoard<ArenaGameRow>();
    const line = (id: string) => board.standingOf(id);

    t += 30_000;
    await refreshBoard(reader, arena.id, board, now());
    expect(reads).toEqual([29]);

    // Another node's join and pause, half a minute on: read as the only changes.
    t += 30_000;
    await service.pause(code, people[0]!);
    await service.join(code, people[29]!);
    await db.prisma.player.update({ where: { id: people[1]!.id }, data: { name: 'renamed' } });
    await refreshBoard(reader, arena.id, board, now());
    expect(reads.at(-1)).toBe(2);
    expect(board.standings()).toHaveLength(30);
    expect(line(people[0]!.id)).toMatchObject({ active: false });
    expect(line(people[29]!.id)).toMatchObject({ active: true });
    // A rename marks no change: seen at the next whole read.
    expect(line(people[1]!.id)).toMatchObject({ name: 'e1' });

    // Changes are read again for a while after (a margin for clocks and commits), and no others.
    t += 29_000;
    await refreshBoard(reader, arena.id, board, now());
    expect(reads.at(-1)).toBe(2);
    t += 1_000;
    await refreshBoard(reader, arena.id, board, now());
    expect(reads.at(-1)).toBe(30);
    expect(line(people[1]!.id)).toMatchObject({ name: 'renamed', active: true });
    expect(line(people[0]!.id)).toMatchObject({ active: false });
  });
});
