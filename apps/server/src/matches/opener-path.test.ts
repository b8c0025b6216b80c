import { legalMoves, type Position } from '@oanquan/rules';
import { ErrorCode, type Hand, type MatchEventEnvelope, type PublicPlayer } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { loggedProcess, refusal, servicesOn, type LoggedProcessOptions } from '../testing/logged-process.js';
import type { Database } from '../db/database.js';
import type { MatchService } from './match-service.js';
import { seatedGuest } from '../testing/seated-guest.js';

const OPENER_TIMEOUT_MS = 30_000;

/**
 * The opener's hot path: a hand decided against the match row this process
 * holds and committed in one statement, and still correct when that row is
 * wrong (another process sharing the database, a race for one version, a
 * round whose time ran out).
 */
describe.each(engines)('the opener path on %s', (engine) => {
  const services = servicesOn(engine);

  const aProcess = (options: Omit<LoggedProcessOptions, 'openerTimeoutMs'> = {}) => loggedProcess(services.db, { ...options, openerTimeoutMs: OPENER_TIMEOUT_MS });

  /** Alice and Bob seated in a new timed room: the match is in its opener. */
  async function seated(matches: MatchService): Promise<{ matchId: string; code: string; alice: PublicPlayer; bob: PublicPlayer }> {
    const [alice, bob] = (await Promise.all([seatedGuest(services.players), seatedGuest(services.players)])).map((g) => g.player) as [PublicPlayer, PublicPlayer];
    const room = await services.rooms.create(alice.id, { rules: { preset: 'classic' }, timeControl: { initialSeconds: 60, incrementSeconds: 2 }, rated: false });
    await matches.join(room.code, alice);
    await matches.join(room.code, bob);
    return { matchId: room.matchId, code: room.code, alice, bob };
  }

  async function stored(matchId: string) {
    const match = await services.db.prisma.match.findUniqueOrThrow({ where: { id: matchId } });
    const rounds = await services.db.prisma.openerRound.findMany({ where: { matchId }, orderBy: { round: 'asc' } });
    const events = await services.db.prisma.matchEvent.findMany({ where: { matchId }, orderBy: { version: 'asc' } });
    return { match, rounds, events };
  }

  it('sends one statement per hand, a tie and the rematch’s opener included; every event is stored before it is published, and play starts as the transaction would start it', async () => {
    const published: MatchEventEnvelope[] = [];
    const unstored: number[] = [];
    const { matches, log, since } = aProcess({
      publish: async (_code, envelopes) => {
        for (const envelope of envelopes) {
          const row = await services.db.prisma.matchEvent.findUnique({ where: { matchId_version: { matchId: envelope.matchId, version: envelope.version } } });
          if (!row) unstored.push(envelope.version);
          published.push(envelope);
        }
      },
    });
    const { matchId, alice, bob } = await seated(matches);
    const hands: Array<[PublicPlayer, Hand]> = [
      [alice, 'rock'],
      [bob, 'rock'],
      [bob, 'paper'],
      [alice, 'scissors'],
    ];
    const statements: string[][] = [];
    let version = 0;
    for (const [player, choice] of hands) {
      const mark = log.length;
      version = await matches.chooseHand(player, { matchId, choice });
      statements.push(since(mark));
    }
    expect(statements).toEqual(hands.map(() => ['sql commit-hand']));

    const { match, rounds, events } = await stored(matchId);
    // A tie, then Alice's scissors (seat 0) cut Bob's paper.
    expect(rounds.map((r) => [r.round, r.choice0, r.choice1, r.winner, r.decidedAt !== null])).toEqual([
      [1, 'rock', 'rock', null, true],
      [2, 'scissors', 'paper', 0, true],
    ]);
    expect(match).toMatchObject({ status: 'playing', first: 0, version, clock0Ms: 60_000, clock1Ms: 60_000, turnStartedAt: null, clockDeadline: null });
    expect(match.startedAt).not.toBeNull();
    expect(match.firstMoveDeadline!.getTime() - match.startedAt!.getTime()).toBe(30_000);
    expect((match.position as { toMove: number; ply: number }).toMove).toBe(0);
    expect(events.map((e) => e.version)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
    expect(events.map((e) => (e.payload as { event: { type: string } }).event.type)).toEqual([
      'seated',
      'seated',
      'opener-chosen',
      'opener-chosen',
      'opener-round',
      'opener-chosen',
      'opener-chosen',
      'opener-round',
      'started',
    ]);
    expect(events.at(-1)?.payload).toMatchObject({ event: { type: 'started', first: 0 } });
    expect(unstored).toEqual([]);
    expect(published).toEqual(events.map((e) => e.payload));

    // The cache the hand left behind is the match in play: the first move takes one statement too.
    const mark = log.length;
    await matches.move(alice, { matchId, moveId: 'first', version, ...legalMoves(match.position as unknown as Position)[0]! }, new Date());
    expect(since(mark)).toEqual(['sql commit-move']);

    await matches.resign(bob, matchId);
    await matches.rematch(alice, matchId);
    await matches.rematch(bob, matchId);
    const next = (await services.db.prisma.match.findUniqueOrThrow({ where: { id: matchId } })).nextMatchId!;
    const rematchMark = log.length;
    await matches.chooseHand(bob, { matchId: next, choice: 'paper' });
    await matches.chooseHand(alice, { matchId: next, choice: 'rock' });
    expect(since(rematchMark)).toEqual(['sql commit-hand', 'sql commit-hand']);
    expect((await stored(next)).match).toMatchObject({ status: 'playing', first: 1 });
  });

  it('both hands sent at the same moment, round after round: each in one statement, none left to the transaction', async () => {
    const { matches, log } = aProcess();
    const { matchId, alice, bob } = await seated(matches);
    const mark = log.length;
    // Ties until round 3 (rock–rock, paper–paper), then Alice's rock breaks Bob's scissors.
    for (const [a, b] of [['rock', 'rock'], ['paper', 'paper'], ['rock', 'scissors']] as Array<[Hand, Hand]>) {
      await Promise.all([matches.chooseHand(alice, { matchId, choice: a }), matches.chooseHand(bob, { matchId, choice: b })]);
    }
    expect(log.slice(mark)).toEqual(Array.from({ length: 6 }, () => 'sql commit-hand'));
    const { match, rounds } = await stored(matchId);
    expect(rounds.map((r) => r.winner)).toEqual([null, null, 0]);
    expect(match).toMatchObject({ status: 'playing', first: 0 });
  });

  it('refuses as the transaction does: a second hand in one round, a spectator, a match out of its opener; nothing is written', async () => {
    const { matches } = aProcess();
    const { matchId, alice, bob } = await seated(matches);
    const carol = (await seatedGuest(services.players)).player;
    await matches.chooseHand(alice, { matchId, choice: 'rock' });
    const before = await stored(matchId);
    expect(await refusal(matches.chooseHand(alice, { matchId, choice: 'paper' }))).toBe(ErrorCode.AlreadyChosen);
    expect(await refusal(matches.chooseHand(carol, { matchId, choice: 'paper' }))).toBe(ErrorCode.NotAPlayer);
    expect(await stored(matchId)).toEqual(before);
    await matches.chooseHand(bob, { matchId, choice: 'paper' });
    const started = await stored(matchId);
    expect(await refusal(matches.chooseHand(bob, { matchId, choice: 'rock' }))).toBe(ErrorCode.NotInOpener);
    expect(await stored(matchId)).toEqual(started);
  });

  it('another process chose meanwhile: the hand the stale row would open a round with is decided again from the row, read in one statement, and completes it; the hand the stale row would take is refused', async () => {
    const a = aProcess();
    const b = aProcess();
    const { matchId, alice, bob } = await seated(a.matches);
    await b.matches.chooseHand(alice, { matchId, choice: 'rock' });

    const mark = a.log.length;
    await a.matches.chooseHand(bob, { matchId, choice: 'paper' });
    expect(a.since(mark)).toEqual(['sql commit-hand', 'sql match-row', 'sql commit-hand']);
    const { match, rounds, events } = await stored(matchId);
    expect(rounds.map((r) => [r.round, r.choice0, r.choice1, r.winner])).toEqual([[1, 'rock', 'paper', 1]]);
    expect(match).toMatchObject({ status: 'playing', first: 1 });
    expect(events.map((e) => e.version)).toEqual(Array.from({ length: match.version }, (_, i) => i + 1));

    // b still holds the opener with Alice's hand in and Bob's not: its hot try fails, the rows refuse.
    expect(await refusal(b.matches.chooseHand(bob, { matchId, choice: 'rock' }))).toBe(ErrorCode.NotInOpener);
    expect(await stored(matchId)).toEqual({ match, rounds, events });
  });

  it('two processes holding the same version take one hand each at the same moment: both hands count, in one round, once', async () => {
    for (let i = 0; i < 4; i++) {
      const a = aProcess();
      const b = aProcess();
      const { matchId, code, alice, bob } = await seated(a.matches);
      // Both processes read the match in its opener, at the same version.
      await a.matches.join(code, alice);
      await b.matches.join(code, bob);
      const racers = [() => a.matches.chooseHand(alice, { matchId, choice: 'rock' }), () => b.matches.chooseHand(bob, { matchId, choice: 'scissors' })];
      if (i % 2) racers.reverse();
      const versions = await Promise.all(racers.map((race) => race()));
      const { match, rounds, events } = await stored(matchId);
      expect(rounds.map((r) => [r.round, r.choice0, r.choice1, r.winner])).toEqual([[1, 'rock', 'scissors', 0]]);
      expect(match).toMatchObject({ status: 'playing', first: 0 });
      expect(Math.max(...versions)).toBe(match.version);
      expect(events.map((e) => (e.payload as { event: { type: string } }).event.type)).toEqual(['seated', 'seated', 'opener-chosen', 'opener-chosen', 'opener-round', 'started']);
    }
  });

  it('the row read after a stale try changes again before the commit (the other hand of the round after a tie): read once more, still no transaction', async () => {
    const a = aProcess();
    // b's reads of the match row: after the first, the other process commits Alice's hand, as if it came just then.
    let meanwhile: (() => Promise<unknown>) | undefined;
    const hooked: Database = {
      ...services.db,
      sql: {
        query: async (statement, values) => {
          const rows = await services.db.sql.query(statement, values);
          const hook = statement.name === 'match-row' ? meanwhile : undefined;
          if (hook) meanwhile = undefined;
          await hook?.();
          return rows as never;
        },
        close: async () => {},
      },
    };
    const b = loggedProcess(hooked, { openerTimeoutMs: OPENER_TIMEOUT_MS });
    const { matchId, code, alice, bob } = await seated(a.matches);
    // b holds round 1 with no hand in; on a, round 1 is a tie.
    await b.matches.join(code, bob);
    await a.matches.chooseHand(alice, { matchId, choice: 'rock' });
    await a.matches.chooseHand(bob, { matchId, choice: 'rock' });
    meanwhile = () => a.matches.chooseHand(alice, { matchId, choice: 'scissors' });
    const mark = b.log.length;
    await b.matches.chooseHand(bob, { matchId, choice: 'paper' });
    expect(b.since(mark)).toEqual(['sql commit-hand', 'sql match-row', 'sql commit-hand', 'sql match-row', 'sql commit-hand']);
    const { match, rounds, events } = await stored(matchId);
    expect(rounds.map((r) => [r.round, r.choice0, r.choice1, r.winner])).toEqual([
      [1, 'rock', 'rock', null],
      [2, 'scissors', 'paper', 0],
    ]);
    expect(match).toMatchObject({ status: 'playing', first: 0 });
    expect(events.map((e) => e.version)).toEqual(Array.from({ length: match.version }, (_, i) => i + 1));
  });

  it('a hand after the round’s time ran out is not taken from memory: the one who chose in time wins the toss', async () => {
    let clock = Date.now();
    const { matches, log, since } = aProcess({ now: () => new Date(clock) });
    const { matchId, alice, bob } = await seated(matches);
    await matches.chooseHand(alice, { matchId, choice: 'rock' });
    clock += OPENER_TIMEOUT_MS + 1;
    const mark = log.length;
    await matches.chooseHand(bob, { matchId, choice: 'paper' });
    expect(since(mark)).not.toContain('sql commit-hand');
    const { match, rounds, events } = await stored(matchId);
    expect(rounds.map((r) => [r.round, r.choice0, r.choice1, r.winner])).toEqual([[1, 'rock', null, 0]]);
    expect(match).toMatchObject({ status: 'playing', first: 0 });
    expect(events.slice(-2).map((e) => (e.payload as { event: { type: string } }).event.type)).toEqual(['opener-forfeit', 'started']);
  });
});
