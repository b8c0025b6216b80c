import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/database.js';
import { engines, migratedDatabase } from '../testing/databases.js';
import { ARENA_LOCK, ArenaDirector, type ArenaAnnouncer } from './arena-director.js';
import { ArenaService, OPEN_ARENAS_PER_ACCOUNT } from './arena-service.js';

const log = pino({ level: 'silent' });

/** A clock the test moves by hand. */
function handClock(start: number) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

function recorder(): ArenaAnnouncer & { pairings: Array<[string, string]>; views: number } {
  const r = {
    pairings: [] as Array<[string, string]>,
    views: 0,
    paired: (_arena: string, playerId: string, roomCode: string) => void r.pairings.push([playerId, roomCode]),
    standings: () => void r.views++,
  };
  return r;
}

describe.each(engines)('arena pairing on %s', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await migratedDatabase(engine);
  });
  afterAll(() => db.close());

  async function players(n: number, rating = (i: number) => 1500 + i * 10) {
    return Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const row = await db.prisma.player.create({ data: { name: `p${i}`, rating: rating(i), passwordHash: 'x' } });
        return { id: row.id, name: row.name };
      }),
    );
  }

  async function arena(clock: { now: () => Date }, minutes = 30) {
    const creator = (await players(1))[0]!;
    const service = new ArenaService(db, clock.now);
    const view = await service.create(creator, { pool: '3+2', rules: { preset: 'classic' }, startsAt: clock.now().toISOString(), minutes });
    return { service, code: view.code, id: (await service.find(view.code)).id };
  }

  /** Ends an arena game as the script says (seat 0's result), as the match service would. */
  async function finish(matchId: string, result: 'win' | 'loss' | 'draw', at: Date) {
    await db.prisma.match.update({
      where: { id: matchId },
      data: { status: 'ended', winner: result === 'win' ? 0 : result === 'loss' ? 1 : null, endReason: result === 'draw' ? 'repetition' : 'quan-gone', endedAt: at },
    });
  }

  const people = (id: string) => ({ id, name: 'again' });

  /** This arena's part of a tick (earlier tests' arenas share the database). */
  const tickOf = async (director: ArenaDirector, code: string) => (await director.tick()).find((t) => t.code === code);

  const live = (arenaId: string) =>
    db.prisma.arenaGame.findMany({ where: { arenaId, match: { status: { not: 'ended' } } }, orderBy: { createdAt: 'asc' } });

  it('pairs free players close in the standings, an odd one waits, a finished pair is not paired again at once', async () => {
    const clock = handClock(Date.UTC(2026, 5, 1, 12));
    const { service, code, id } = await arena(clock);
    const people = await players(5);
    for (const p of people) await service.join(code, p);
    const announcer = recorder();
    const director = new ArenaDirector(db, announcer, log, { tickMs: 1000, schedule: false }, clock.now);

    const first = await tickOf(director, code);
    expect(first!.pairs).toHaveLength(2);
    // Ranked by rating before any game: p4 p3 | p2 p1 | p0 waits.
    const byId = new Map(people.map((p) => [p.id, p.name]));
    expect(first!.pairs.map((p) => p.players.map((x) => byId.get(x)).join('-'))).toEqual(['p4-p3', 'p2-p1']);
    expect(announcer.pairings).toHaveLength(4);
    expect(first!.view.standings.find((s) => s.name === 'p0')?.playing).toBeNull();

    // A second tick while they play pairs nobody (p0 alone is free).
    expect((await tickOf(director, code))!.pairs).toEqual([]);

    const games = await live(id);
    clock.advance(60_000);
    await finish(games[0]!.matchId, 'win', clock.now());
    const second = await tickOf(director, code);
    // p4 won; p4 and p3 are free with p0: p4 meets p0 (not p3 again), p3 waits.
    expect(second!.pairs.map((p) => p.players.map((x) => byId.get(x)).join('-'))).toEqual(['p4-p0']);
    expect(second!.view.standings[0]).toMatchObject({ name: 'p4', score: 2, points: [2] });
    // Nothing changed: no standings are sent again.
    const views = announcer.views;
    await tickOf(director, code);
    expect(announcer.views).toBe(views);
  });

  it('pairs again at once when one of its games ends, and not for any other match', async () => {
    const clock = handClock(Date.UTC(2026, 5, 1, 15));
    const { service, code, id } = await arena(clock);
    const people = await players(3);
    for (const p of people) await service.join(code, p);
    const announcer = recorder();
    const director = new ArenaDirector(db, announcer, log, { tickMs: 60_000, schedule: false }, clock.now);
    const ours = () => announcer.pairings.filter(([playerId]) => people.some((p) => p.id === playerId)).length;
    expect((await tickOf(director, code))!.pairs).toHaveLength(1);
    expect(ours()).toBe(2);
    const [game] = await live(id);
    clock.advance(60_000);
    await finish(game!.matchId, 'win', clock.now());
    const ended = (matchId: string) => [{ matchId, version: 9, at: clock.now().toISOString(), event: { type: 'ended' as const, result: { winner: 0 as const, reason: 'quan-gone' as const, score: [30, 20] as [number, number] }, ratings: null } }];

    // Another match's end, or a later change of the arena's ended match (a rematch offer): no tick.
    await director.changed({ id: randomUUID(), status: 'ended' }, ended(randomUUID()));
    await director.changed({ id: game!.matchId, status: 'ended' }, [{ matchId: game!.matchId, version: 10, at: clock.now().toISOString(), event: { type: 'rematch-offered', seat: 0 } }]);
    expect(ours()).toBe(2);
    // The arena's game ending: the one who waited is paired with a player of that game.
    await director.changed({ id: game!.matchId, status: 'ended' }, ended(game!.matchId));
    expect(ours()).toBe(4);
  });

  it('pauses and resumes, and when time is up lets the games in play finish and count before the podium', async () => {
    const clock = handClock(Date.UTC(2026, 5, 2, 12));
    const { service, code, id } = await arena(clock, 10);
    const [a, b, c] = await players(3);
    for (const p of [a!, b!, c!]) await service.join(code, p);
    await service.pause(code, c!);
    const director = new ArenaDirector(db, recorder(), log, { tickMs: 1000, schedule: false }, clock.now);
    expect((await tickOf(director, code))!.pairs).toHaveLength(1);
    const [game] = await live(id);
    expect((await service.view(code)).standings.find((s) => s.id === c!.id)).toMatchObject({ active: false, playing: null });
    await service.join(code, c!);
    expect((await service.view(code)).standings.find((s) => s.id === c!.id)).toMatchObject({ active: true, playing: null });
    clock.advance(11 * 60_000);
    let tick = await tickOf(director, code);
    expect(tick!.view.phase).toBe('ending');
    await service.join(code, c!).then(
      () => expect.unreachable(),
      (error: { code: string }) => expect(error.code).toBe('ARENA_OVER'),
    );
    await finish(game!.matchId, 'draw', clock.now());
    tick = await tickOf(director, code);
    expect(tick!.pairs).toEqual([]);
    expect(tick!.view.phase).toBe('finished');
    expect(tick!.view.standings.map((s) => s.score)).toEqual([1, 1, 0]);
    expect(tick!.view.games).toHaveLength(1);
    expect(await tickOf(director, code)).toBeUndefined();
    expect((await service.view(code)).standings.map((s) => s.score)).toEqual([1, 1, 0]);
  });

  it('pauses a player who did not show up for their game, until they join again', async () => {
    const clock = handClock(Date.UTC(2026, 5, 4, 12));
    const { service, code, id } = await arena(clock);
    const [a, b] = await players(2);
    for (const p of [a!, b!]) await service.join(code, p);
    const director = new ArenaDirector(db, recorder(), log, { tickMs: 1000, schedule: false }, clock.now);
    await tickOf(director, code);
    const [game] = await live(id);
    clock.advance(40_000);
    // The first mover never moved: the match was aborted at its deadline.
    await db.prisma.match.update({
      where: { id: game!.matchId },
      data: { status: 'ended', endReason: 'abort', first: 0, firstMoveDeadline: clock.now(), endedAt: clock.now() },
    });
    const tick = await tickOf(director, code);
    const absent = game!.player0Id;
    expect(tick!.view.standings.map((s) => [s.id, s.active, s.points])).toEqual(
      expect.arrayContaining([
        [absent, false, []],
        [game!.player1Id, true, []],
      ]),
    );
    clock.advance(1000);
    await service.join(code, people(absent));
    await tickOf(director, code);
    expect((await service.view(code)).standings.find((s) => s.id === absent)?.active).toBe(true);
  });

  it('deletes an arena nobody joined once its time is up', async () => {
    const clock = handClock(Date.UTC(2026, 5, 5, 12));
    const { code, id } = await arena(clock, 10);
    const director = new ArenaDirector(db, recorder(), log, { tickMs: 1000, schedule: false }, clock.now);
    await tickOf(director, code);
    expect(await db.prisma.arena.count({ where: { id } })).toBe(1);
    clock.advance(10 * 60_000);
    await tickOf(director, code);
    expect(await db.prisma.arena.count({ where: { id } })).toBe(0);
  });

  it("sends the standings of an arena nobody joined once, not at every tick (every game's end ticks too)", async () => {
    const clock = handClock(Date.UTC(2026, 5, 7, 12));
    const { code } = await arena(clock, 10);
    const sent: string[] = [];
    const director = new ArenaDirector(db, { paired: () => {}, standings: (view) => void sent.push(view.code) }, log, { tickMs: 1000, schedule: false }, clock.now);
    for (let tick = 0; tick < 3; tick++) await tickOf(director, code);
    expect(sent.filter((sentCode) => sentCode === code)).toHaveLength(1);
  });

  it('ticks a running arena nobody joined without a transaction, and pairs its first entrants at once', async () => {
    // Before every other test's arena starts: this one is the only one open.
    const clock = handClock(Date.UTC(2026, 4, 31, 12));
    const { service, code } = await arena(clock, 10);
    const director = new ArenaDirector(db, recorder(), log, { tickMs: 1000, schedule: false }, clock.now);
    const transaction = vi.spyOn(db.prisma, '$transaction');
    try {
      const idle = await tickOf(director, code);
      expect(idle).toMatchObject({ pairs: [], view: { phase: 'running', standings: [] } });
      expect(transaction).not.toHaveBeenCalled();
      for (const p of await players(2)) await service.join(code, p);
      expect((await tickOf(director, code))!.pairs).toHaveLength(1);
      expect(transaction).toHaveBeenCalled();
    } finally {
      transaction.mockRestore();
    }
  });

  it('lets an account have a few arenas not yet finished, no more', async () => {
    const clock = handClock(Date.UTC(2026, 5, 6, 12));
    const [maker] = await players(1);
    const service = new ArenaService(db, clock.now);
    const make = () => service.create(maker!, { pool: '5+3', rules: { preset: 'classic' }, startsAt: clock.now().toISOString(), minutes: 10 });
    for (let i = 0; i < OPEN_ARENAS_PER_ACCOUNT; i++) await make();
    await make().then(
      () => expect.unreachable(),
      (error: { code: string }) => expect(error.code).toBe('TOO_MANY_ARENAS'),
    );
    expect(await db.prisma.arena.count({ where: { createdById: maker!.id } })).toBe(OPEN_ARENAS_PER_ACCOUNT);
  });

  it('pairs the only two players again once they have waited, not before, and tells each why they wait', async () => {
    // After every other test's arenas have started: those are ending, this one runs.
    const clock = handClock(Date.UTC(2026, 5, 8, 12));
    const { service, code, id } = await arena(clock);
    const [a, b, c] = await players(3);
    const waitingOf = async (p: { id: string }) => (await service.view(code, 1, p.id)).me?.waiting;
    const repeatAfterMs = 7_000;
    const director = new ArenaDirector(db, recorder(), log, { tickMs: 1000, repeatAfterMs, schedule: false }, clock.now);

    await service.join(code, a!);
    expect(await waitingOf(a!)).toEqual({ reason: 'alone' });
    await service.join(code, b!);
    expect((await tickOf(director, code))!.pairs).toHaveLength(1);
    expect(await waitingOf(a!)).toBeNull();
    // A third comes while they play, and leaves again.
    await service.join(code, c!);
    expect(await waitingOf(c!)).toEqual({ reason: 'busy' });
    await service.pause(code, c!);
    expect(await waitingOf(c!)).toBeNull();

    const [game] = await live(id);
    clock.advance(60_000);
    await finish(game!.matchId, 'win', clock.now());
    const again = new Date(clock.now().getTime() + repeatAfterMs).toISOString();
    const ended = await tickOf(director, code);
    expect(ended!.pairs).toEqual([]);
    expect(new Map(ended!.view.standings.map((s) => [s.id, s.waiting]))).toEqual(
      new Map([
        [a!.id, { reason: 'rematch', opponent: b!.name, at: again }],
        [b!.id, { reason: 'rematch', opponent: a!.name, at: again }],
        [c!.id, null],
      ]),
    );
    clock.advance(repeatAfterMs - 1);
    expect((await tickOf(director, code))!.pairs).toEqual([]);
    clock.advance(1);
    const rematch = await tickOf(director, code);
    expect(rematch!.pairs.map((p) => new Set(p.players))).toEqual([new Set([a!.id, b!.id])]);
    expect(await live(id)).toHaveLength(1);
  });

  it('pairs nobody while another node holds the pairing lock', async () => {
    const clock = handClock(Date.UTC(2026, 5, 3, 12));
    const { service, code, id } = await arena(clock);
    for (const p of await players(2)) await service.join(code, p);
    const director = new ArenaDirector(db, recorder(), log, { tickMs: 1000, schedule: false }, clock.now);
    if (engine === 'postgresql') {
      // A second connection holds the lock as another node's tick would.
      const other = await migratedHolder(db);
      try {
        expect(await tickOf(director, code)).toBeUndefined();
        expect(await live(id)).toHaveLength(0);
      } finally {
        await other.release();
      }
    }
    expect((await tickOf(director, code))!.pairs).toHaveLength(1);
  });
});

/** Holds the arena lock on a connection of its own until released. */
async function migratedHolder(db: Database): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const done = db.prisma.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(${ARENA_LOCK}::int8)::text`;
      held();
      await released;
    },
    { timeout: 30_000 },
  );
  await holding;
  return {
    async release() {
      release();
      await done;
    },
  };
}
