import { PRESETS, type Move } from '@oanquan/rules';
import { ErrorCode, type MatchEventEnvelope, type PublicPlayer } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { scriptedGame } from '../testing/live.js';
import { loggedProcess, refusal, servicesOn, type LoggedProcessOptions } from '../testing/logged-process.js';
import type { GameCache } from '../live/game-cache.js';
import { readMatchRow } from '../match-records/match-row.js';
import type { MatchService, MatchServiceOptions } from './match-service.js';
import { seatedGuest } from '../testing/seated-guest.js';

/**
 * The move's hot path: decided in memory, committed in one statement, and
 * still correct when the memory is wrong (a restart, another process sharing
 * the database, a retried move id, a race for one version, an overload).
 */
describe.each(engines)('the move path on %s', (engine) => {
  const services = servicesOn(engine);

  const aProcess = (options: MatchServiceOptions = {}, publish?: LoggedProcessOptions['publish']) => loggedProcess(services.db, { ...options, publish });

  /** A casual untimed match in play, Alice (seat 0) to move first, and the whole game the two will play. */
  async function started(matches: MatchService): Promise<{ matchId: string; alice: PublicPlayer; bob: PublicPlayer; version: number; game: Move[] }> {
    const [alice, bob] = (await Promise.all([seatedGuest(services.players), seatedGuest(services.players)])).map((g) => g.player) as [PublicPlayer, PublicPlayer];
    const room = await services.rooms.create(alice.id, { rules: { preset: 'classic' }, timeControl: null, rated: false });
    await matches.join(room.code, alice);
    await matches.join(room.code, bob);
    await matches.chooseHand(alice, { matchId: room.matchId, choice: 'paper' });
    const version = await matches.chooseHand(bob, { matchId: room.matchId, choice: 'rock' });
    return { matchId: room.matchId, alice, bob, version, game: scriptedGame(PRESETS.classic, 0) };
  }

  async function stored(matchId: string) {
    const match = await services.db.prisma.match.findUniqueOrThrow({ where: { id: matchId } });
    const moves = await services.db.prisma.move.findMany({ where: { matchId }, orderBy: { ply: 'asc' } });
    const events = await services.db.prisma.matchEvent.findMany({ where: { matchId }, orderBy: { version: 'asc' } });
    return { match, moves, events };
  }

  it('sends one statement per move, the ending included; after a restart the first move is read from the rows, then one statement again; every event is stored before it is published', async () => {
    const published: MatchEventEnvelope[] = [];
    const unstored: number[] = [];
    const publish = async (_code: string, envelopes: MatchEventEnvelope[]) => {
      for (const envelope of envelopes) {
        const row = await services.db.prisma.matchEvent.findUnique({ where: { matchId_version: { matchId: envelope.matchId, version: envelope.version } } });
        if (!row) unstored.push(envelope.version);
        published.push(envelope);
      }
    };
    const first = aProcess({}, publish);
    const { matchId, alice, bob, version: startVersion, game } = await started(first.matches);
    const seats = [alice, bob];
    let version = startVersion;
    let current = first;
    const statements: string[][] = [];
    for (const [i, move] of game.entries()) {
      // A restart halfway: the new process knows nothing of the match.
      if (i === 10) current = aProcess({}, publish);
      const mark = current.log.length;
      version = await current.matches.move(seats[i % 2]!, { matchId, moveId: `m${i}`, version, ...move }, new Date());
      statements.push(current.since(mark));
    }

    // The new process reads the match from its rows in two statements, outside any transaction.
    expect(statements[10]).toEqual(['sql match-row', 'sql live-columns', 'sql commit-move']);
    const hot = statements.filter((_, i) => i !== 10);
    expect(hot).toEqual(hot.map(() => ['sql commit-move']));

    const { match, moves, events } = await stored(matchId);
    expect(match).toMatchObject({ status: 'ended', version });
    expect(moves.map((m) => [m.ply, m.moveId, m.square, m.dir === 1 ? 1 : -1])).toEqual(game.map((m, i) => [i + 1, `m${i}`, m.square, m.dir]));
    expect(events.map((e) => e.version)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
    expect(events.at(-1)?.payload).toMatchObject({ event: { type: 'ended', ratings: null } });
    expect(unstored).toEqual([]);
    expect(published.filter((e) => e.event.type === 'moved' || e.event.type === 'ended')).toEqual(events.slice(startVersion).map((e) => e.payload));
  });

  it('a repeated moveId returns the first outcome and changes nothing, also once the match has moved on; another player cannot reuse it', async () => {
    const { matches } = aProcess();
    const { matchId, alice, bob, version, game } = await started(matches);
    const payload = { matchId, moveId: 'once', version, ...game[0]! };
    const applied = await matches.move(alice, payload, new Date());
    expect(await matches.move(alice, payload, new Date())).toBe(applied);
    await matches.move(bob, { matchId, moveId: 'reply', version: applied, ...game[1]! }, new Date());
    expect(await matches.move(alice, payload, new Date())).toBe(applied);
    expect(await refusal(matches.move(bob, payload, new Date()))).toBe(ErrorCode.BadRequest);

    const { match, moves, events } = await stored(matchId);
    expect(moves.map((m) => m.moveId)).toEqual(['once', 'reply']);
    expect(match.version).toBe(applied + 1);
    expect(events).toHaveLength(applied + 1);
  });

  it("catches up when another process changed the match: a move the stale memory would refuse is taken, one it would take is refused", async () => {
    const a = aProcess();
    const b = aProcess();
    const { matchId, alice, bob, version, game } = await started(a.matches);
    // Alice moves through the other process; this one still holds the match as it was, Alice to move.
    const afterAlice = await b.matches.move(alice, { matchId, moveId: 'a1', version, ...game[0]! }, new Date());
    let mark = a.log.length;
    const afterBob = await a.matches.move(bob, { matchId, moveId: 'b1', version: afterAlice, ...game[1]! }, new Date());
    expect(afterBob).toBe(afterAlice + 1);
    // Caught up in one statement, then committed in one.
    expect(a.since(mark)).toEqual(['sql live-columns', 'sql commit-move']);

    // Now this process knows the match; Bob resigns through the other. Alice's move passes the
    // check in memory, but the statement finds the version moved on: decided again, and refused.
    await b.matches.resign(bob, matchId);
    mark = a.log.length;
    expect(await refusal(a.matches.move(alice, { matchId, moveId: 'a2', version: afterBob, ...game[2]! }, new Date()))).toBe(ErrorCode.NotInPlay);
    expect(a.since(mark).slice(0, 2)).toEqual(['sql commit-move', 'sql live-columns']);
    expect(a.since(mark).some((s) => s.startsWith('prisma'))).toBe(true);

    const { match, moves } = await stored(matchId);
    expect(match).toMatchObject({ status: 'ended', endReason: 'resign', winner: 0 });
    expect(moves.map((m) => m.moveId)).toEqual(['a1', 'b1']);
  });

  it('moves of several matches sent at the same moment share one statement, and each gets its own outcome: applied, or beaten to its version; a repeated move id returns the first outcome', async () => {
    const a = aProcess();
    const b = aProcess();
    const [one, two, three] = [await started(a.matches), await started(a.matches), await started(a.matches)] as const;
    // Two: Alice moves through the other process, so this one's row is a version behind.
    await b.matches.move(two.alice, { matchId: two.matchId, moveId: 'elsewhere', version: two.version, ...two.game[0]! }, new Date());
    // Three: Alice's move is applied, and she will send it again.
    const repeated = { matchId: three.matchId, moveId: 'again', version: three.version, ...three.game[0]! };
    const applied = await a.matches.move(three.alice, repeated, new Date());

    const mark = a.log.length;
    const outcomes = await Promise.all([
      refusal(a.matches.move(one.alice, { matchId: one.matchId, moveId: 'fresh', version: one.version, ...one.game[0]! }, new Date())),
      refusal(a.matches.move(two.alice, { matchId: two.matchId, moveId: 'late', version: two.version, ...two.game[0]! }, new Date())),
      a.matches.move(three.alice, repeated, new Date()),
    ]);
    expect(outcomes[0]).toBe('ok');
    expect(outcomes[1]).not.toBe('ok');
    expect(outcomes[2]).toBe(applied);
    // One and two both pass the check in memory, so both reach the statement: one statement carried them.
    // Three's old version sends it to the rows at once, which know the move id.
    expect(a.since(mark).filter((s) => s === 'sql commit-move')).toHaveLength(1);

    expect((await stored(one.matchId)).moves.map((m) => m.moveId)).toEqual(['fresh']);
    expect((await stored(two.matchId)).moves.map((m) => m.moveId)).toEqual(['elsewhere']);
    const third = await stored(three.matchId);
    expect(third.moves.map((m) => m.moveId)).toEqual(['again']);
    expect(third.match.version).toBe(applied);
  });

  it('a move id reused for a later move fails its shared statement on the unique index: the other move of that statement is still applied, and the reuse answers the first outcome', async () => {
    const { matches, log } = aProcess();
    const one = await started(matches);
    const two = await started(matches);
    const first = await matches.move(one.alice, { matchId: one.matchId, moveId: 'mine', version: one.version, ...one.game[0]! }, new Date());
    const reply = await matches.move(one.bob, { matchId: one.matchId, moveId: 'reply', version: first, ...one.game[1]! }, new Date());
    const mark = log.length;
    const [reused, other] = await Promise.all([
      matches.move(one.alice, { matchId: one.matchId, moveId: 'mine', version: reply, ...one.game[2]! }, new Date()),
      matches.move(two.alice, { matchId: two.matchId, moveId: 'beside', version: two.version, ...two.game[0]! }, new Date()),
    ]);
    expect(reused).toBe(first);
    expect(other).toBe(two.version + 1);
    // Together, then each alone: the reuse is refused by the index again, and the other applied.
    expect(log.slice(mark).filter((s) => s === 'sql commit-move')).toHaveLength(3);
    expect((await stored(one.matchId)).moves.map((m) => m.moveId)).toEqual(['mine', 'reply']);
    expect((await stored(two.matchId)).moves.map((m) => m.moveId)).toEqual(['beside']);
  });

  it('players on two processes: each process follows the other’s moves from their events, so every move is one statement, and what it holds is the stored row', async () => {
    const heardByA: MatchEventEnvelope[][] = [];
    const heardByB: MatchEventEnvelope[][] = [];
    // Each process hears the other's events, as through Redis.
    const a = aProcess({}, (_code, envelopes) => void heardByB.push(envelopes));
    const b = aProcess({}, (_code, envelopes) => void heardByA.push(envelopes));
    const [alice, bob] = (await Promise.all([seatedGuest(services.players), seatedGuest(services.players)])).map((g) => g.player) as [PublicPlayer, PublicPlayer];
    const room = await services.rooms.create(alice.id, { rules: { preset: 'classic' }, timeControl: { initialSeconds: 60, incrementSeconds: 2 }, rated: false });
    await a.matches.join(room.code, alice);
    await b.matches.join(room.code, bob);
    await a.matches.chooseHand(alice, { matchId: room.matchId, choice: 'paper' });
    let version = await b.matches.chooseHand(bob, { matchId: room.matchId, choice: 'rock' });
    const game = scriptedGame(PRESETS.classic, 0);
    // Alice's process reads the started match once, on her first move; from then on it follows.
    version = await a.matches.move(alice, { matchId: room.matchId, moveId: 'm0', version, ...game[0]! }, new Date());
    b.matches.follow(heardByB.splice(0).flat());
    a.matches.follow(heardByA.splice(0).flat());
    const marks = [a.log.length, b.log.length];
    for (let i = 1; i < 12; i++) {
      const [mover, seat, other, heard] = i % 2 ? [b, bob, a, heardByA] : [a, alice, b, heardByB];
      await new Promise((resolve) => setTimeout(resolve, 15));
      version = await mover.matches.move(seat, { matchId: room.matchId, moveId: `m${i}`, version, ...game[i]! }, new Date());
      other.matches.follow(heard.splice(0).flat());
      // What the other process now holds is the row as stored, clocks included.
      const held = (other.matches as unknown as { state: { games: GameCache } }).state.games.get(room.matchId)!.match;
      const stored = (await readMatchRow(services.db.sql, room.matchId))!;
      const columns = (row: typeof stored) => [row.version, row.status, row.position, row.clock0Ms, row.clock1Ms, row.turnStartedAt, row.clockDeadline];
      expect(columns(held)).toEqual(columns(stored));
    }
    expect([...a.since(marks[0]!), ...b.since(marks[1]!)]).toEqual(Array.from({ length: 11 }, () => 'sql commit-move'));
  });

  it('two processes racing for every version of a game: exactly one move is applied each time', async () => {
    const a = aProcess();
    const b = aProcess();
    const { matchId, alice, bob, version: startVersion, game } = await started(a.matches);
    const seats = [alice, bob];
    let version = startVersion;
    const plies = Math.min(game.length - 1, 16);
    for (let i = 0; i < plies; i++) {
      const payload = (moveId: string) => ({ matchId, moveId, version, ...game[i]! });
      const racers = [a, b].map((p, k) => () => p.matches.move(seats[i % 2]!, payload(`${'ab'[k]}${i}`), new Date()));
      // Each goes first in turn.
      if (i % 2) racers.reverse();
      const outcomes = await Promise.allSettled(racers.map((race) => race()));
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      expect(won).toHaveLength(1);
      const lost = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect([ErrorCode.StaleVersion, ErrorCode.NotYourTurn]).toContain((lost.reason as { code?: string }).code);
      version = (won[0] as PromiseFulfilledResult<number>).value;
    }
    const { match, moves, events } = await stored(matchId);
    expect(match.version).toBe(version);
    expect(moves.map((m) => m.ply)).toEqual(Array.from({ length: plies }, (_, i) => i + 1));
    expect(events.map((e) => e.version)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
  });

  it('refuses a move beyond the moves in flight as BUSY, changing nothing, and takes the same move sent again', async () => {
    const { matches } = aProcess({ maxMovesInFlight: 1 });
    const one = await started(matches);
    const two = await started(matches);
    const first = matches.move(one.alice, { matchId: one.matchId, moveId: 'x', version: one.version, ...one.game[0]! }, new Date());
    const shed = { matchId: two.matchId, moveId: 'y', version: two.version, ...two.game[0]! };
    expect(await refusal(matches.move(two.alice, shed, new Date()))).toBe(ErrorCode.Busy);
    await first;
    expect((await stored(two.matchId)).moves).toEqual([]);
    expect((await stored(two.matchId)).match.version).toBe(two.version);
    expect(await matches.move(two.alice, shed, new Date())).toBe(two.version + 1);
    expect((await stored(two.matchId)).moves.map((m) => m.moveId)).toEqual(['y']);
  });
});
