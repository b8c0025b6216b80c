import type { MatchSnapshot } from '@oanquan/protocol';
import { PRESETS } from '@oanquan/rules';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startCluster, startRedis, type OwnRedis } from '../testing/cluster.js';
import { postgresAvailable } from '../testing/databases.js';
import { newGuest, newRoom, openedGame, scriptedGame, startApp, TestClient } from '../testing/live.js';
import { ReconnectingPlayer } from '../testing/reconnecting-player.js';
import { waitFor } from '../testing/wait-for.js';
import type { App } from '../app.js';

describe.runIf(postgresAvailable)('match events with Redis', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  const ownRedis = async (): Promise<OwnRedis> => {
    const redis = await startRedis();
    cleanups.push(redis.stop);
    return redis;
  };

  /** Two processes sharing Redis, and a room made on the first by a guest of the first, with a guest of the second. */
  const roomAcrossTwo = async () => {
    const redis = await ownRedis();
    const cluster = await startCluster({ REDIS_URL: redis.url, MATCH_FEED_CHECK_MS: '300' });
    cleanups.push(cluster.stop);
    const [one, two] = cluster.servers;
    const [alice, bob] = await Promise.all([newGuest(one.url), newGuest(two.url)]);
    return { redis, cluster, one, two, alice, bob, room: await newRoom(one.url, alice.token) };
  };

  /** Each player on their own process, through the opener and a resignation: a rematch to ask for. */
  const endedAcrossTwo = async () => {
    const across = await roomAcrossTwo();
    const { one, two, alice, bob, room } = across;
    const a = await TestClient.connect(one.url, alice.token);
    const b = await TestClient.connect(two.url, bob.token);
    cleanups.push(() => a.close(), () => b.close());
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    expect(await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' })).toMatchObject({ ok: true });
    expect(await a.request('resign', { matchId: room.matchId })).toMatchObject({ ok: true });
    return { ...across, a, b };
  };

  it("reach the mover before the move's acknowledgement, for a whole game", async () => {
    const redis = await ownRedis();
    const { url, app } = await startApp('postgresql', {}, { REDIS_URL: redis.url });
    cleanups.push(() => (app as App).close());
    const [alice, bob] = await Promise.all([newGuest(url), newGuest(url)]);
    const room = await newRoom(url, alice.token);
    const a = await TestClient.connect(url, alice.token);
    const b = await TestClient.connect(url, bob.token);
    cleanups.push(() => a.close(), () => b.close());
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const started = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
    if (!started.ok) throw new Error(started.code);
    await a.waitForVersion(started.version);

    const moves = scriptedGame(PRESETS.classic, 0);
    let late = 0;
    for (const [i, move] of moves.entries()) {
      const mover = i % 2 === 0 ? a : b;
      // The events are interleaved with the other seat's, so the order is read per move.
      const ack = await mover.request('move', { matchId: room.matchId, moveId: `m${i}`, version: mover.version, ...move });
      if (!ack.ok) throw new Error(`${ack.code} at ply ${i + 1}`);
      if (!mover.events.some((e) => e.version === ack.version)) late++;
      await (i % 2 === 0 ? b : a).waitForVersion(ack.version);
    }
    expect(late).toBe(0);
    expect(a.events.at(-1)?.event.type).toBe('ended');
  }, 60_000);

  it("reach a rematch's players whole and in order, though its first events cross on their way", async () => {
    const { redis, a, b, room } = await endedAcrossTwo();
    await a.request('rematch', { matchId: room.matchId });
    await b.request('rematch', { matchId: room.matchId });
    const rematchOf = (client: TestClient) => client.events.find((e) => e.event.type === 'rematch')?.event;
    await a.until(() => !!rematchOf(a) && !!rematchOf(b), 'the rematch on both processes');
    const next = rematchOf(b)!;
    if (next.type !== 'rematch') throw new Error('no rematch');
    /** The versions of the new match, as they reached a client: in that order, not sorted. */
    const arrived = (client: TestClient) => client.events.filter((e) => e.matchId === next.matchId).map((e) => e.version);
    const upTo = (version: number) => Array.from({ length: version }, (_, i) => i + 1);

    // Process one's first event of the new match waits in Redis while process two commits the ones after it:
    // process two hands its socket that one first, from the database, and only then its own and the answer.
    await redis.command('CLIENT', 'PAUSE', '20000', 'WRITE');
    expect(await a.request('opener:choose', { matchId: next.matchId, choice: 'rock' })).toMatchObject({ ok: true, version: 1 });
    const answered = await b.request('opener:choose', { matchId: next.matchId, choice: 'paper' });
    if (!answered.ok) throw new Error(answered.code);
    expect(arrived(b)).toEqual(upTo(answered.version));
    await redis.command('CLIENT', 'UNPAUSE');

    // Once Redis lets process one's message through, it is not handed out again.
    const resigned = await a.request('resign', { matchId: next.matchId });
    if (!resigned.ok) throw new Error(resigned.code);
    await b.waitForVersion(resigned.version);
    expect(arrived(b)).toEqual(upTo(resigned.version));
    expect(arrived(a)).toEqual(upTo(resigned.version));
  }, 60_000);

  it("reach a rematch's players in order when Redis holds both the rematch and the new match's first event past a check", async () => {
    const { redis, a, b, room } = await endedAcrossTwo();
    expect(await b.request('rematch', { matchId: room.matchId })).toMatchObject({ ok: true });

    // Process one accepts and its player chooses a hand of the new match; Redis holds both messages.
    await redis.command('CLIENT', 'PAUSE', '20000', 'WRITE');
    expect(await a.request('rematch', { matchId: room.matchId })).toMatchObject({ ok: true });
    const next = a.events.find((e) => e.event.type === 'rematch')?.event;
    if (next?.type !== 'rematch') throw new Error('no rematch');
    expect(await a.request('opener:choose', { matchId: next.matchId, choice: 'rock' })).toMatchObject({ ok: true, version: 1 });
    // Process two's checks find both in the database: the rematch goes out first, then the new match.
    const seen = () => b.events.filter((e) => e.event.type === 'rematch' || e.matchId === next.matchId).map((e) => (e.event.type === 'rematch' ? 'rematch' : e.version));
    await b.until(() => seen().includes(1), "the new match's first event, from the database", 15_000);
    expect(seen()).toEqual(['rematch', 1]);
    await redis.command('CLIENT', 'UNPAUSE');

    // Once Redis lets process one's messages through, they are not handed out again.
    expect(await b.request('opener:choose', { matchId: next.matchId, choice: 'paper' })).toMatchObject({ ok: true });
    const resigned = await a.request('resign', { matchId: next.matchId });
    if (!resigned.ok) throw new Error(resigned.code);
    await b.waitForVersion(resigned.version);
    expect(seen()).toEqual(['rematch', ...Array.from({ length: resigned.version }, (_, i) => i + 1)]);
  }, 60_000);

  it('reach the other processes though the committing process died before publishing them', async () => {
    const { redis, cluster, one, two, alice, bob, room } = await roomAcrossTwo();
    const a = await ReconnectingPlayer.connect(one.url, alice.token);
    const b = await TestClient.connect(two.url, bob.token);
    cleanups.push(() => a.close(), () => b.close());
    await a.join(room.code);
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const started = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
    if (!started.ok) throw new Error(started.code);
    await b.waitForVersion(started.version);

    // Process one commits and answers, but its message to Redis waits behind the pause: then it dies.
    await redis.command('CLIENT', 'PAUSE', '3000', 'WRITE');
    const [first] = scriptedGame(PRESETS.classic, 0);
    const ack = await a.request('move', { matchId: room.matchId, moveId: 'a1', version: started.version, ...first });
    expect(ack).toEqual({ ok: true, version: started.version + 1 });
    one.child.kill('SIGKILL');
    await one.exited;

    // Process two finds the version missing and delivers it from the database.
    await b.waitForVersion(started.version + 1, 8000);
    expect(b.events.filter((e) => e.version === started.version + 1).map((e) => e.event.type)).toEqual(['moved']);

    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    try {
      expect((await client.query('SELECT move_id FROM move WHERE match_id = $1', [room.matchId])).rows).toEqual([{ move_id: 'a1' }]);
    } finally {
      await client.end();
    }
  }, 90_000);
  it('reach a socket that joins mid-game on the other process once each: none skipped, none sent twice', async () => {
    const redis = await ownRedis();
    const checkMs = 300;
    const cluster = await startCluster({ REDIS_URL: redis.url, MATCH_FEED_CHECK_MS: String(checkMs) });
    cleanups.push(cluster.stop);
    const [one, two] = cluster.servers;
    const moves = scriptedGame(PRESETS.classic, 0);
    /** Both players on process one; a watcher is the first socket of the room on process two. */
    const game = async () => {
      const opened = await openedGame([one.url, one.url]);
      cleanups.push(() => opened.a.close(), () => opened.b.close());
      let version = opened.version;
      const move = async (i: number) => {
        const ack = await (i % 2 === 0 ? opened.a : opened.b).request('move', { matchId: opened.room.matchId, moveId: `m${i}`, version, ...moves[i]! });
        if (!ack.ok) throw new Error(`${ack.code} at ply ${i + 1}`);
        version = ack.version;
        return version;
      };
      const watch = async () => {
        const guest = await newGuest(two.url);
        const watcher = await TestClient.connect(two.url, guest.token);
        cleanups.push(() => watcher.close());
        const joined = await watcher.request('room:join', { code: opened.room.code });
        if (!joined.ok) throw new Error(joined.code);
        const received = () => watcher.events.filter((e) => e.matchId === opened.room.matchId).map((e) => e.version);
        return { watcher, from: (joined as { snapshot: MatchSnapshot }).snapshot.version, received };
      };
      return { move, watch };
    };

    // The watcher joins while an event is on its way through Redis: its snapshot has it, so the event must not come again.
    const crossing = await game();
    await crossing.move(0);
    // Paused until UNPAUSE: the long ceiling only matters on a busy machine, where the steps between take seconds.
    await redis.command('CLIENT', 'PAUSE', '20000', 'WRITE');
    const onItsWay = await crossing.move(1);
    const early = await crossing.watch();
    expect(early.from).toBe(onItsWay);
    await redis.command('CLIENT', 'UNPAUSE');
    const after = await crossing.move(2);
    await early.watcher.waitForVersion(after);
    expect(early.received()).toEqual([after]);

    // The other process's check of versions sees the game before any message does (Redis holds them): the watcher
    // still gets the event it lacks, from the database, and not again when Redis lets the message through.
    const checked = await game();
    await checked.move(0);
    const late = await checked.watch();
    await redis.command('CLIENT', 'PAUSE', '30000', 'WRITE');
    const held = await checked.move(1);
    expect(held).toBe(late.from + 1);
    // Within the pause, so the event can only have come from the database.
    await late.watcher.waitForVersion(held, 25_000);
    await redis.command('CLIENT', 'UNPAUSE');
    const next = await checked.move(2);
    await late.watcher.waitForVersion(next);
    expect(late.received()).toEqual([held, next]);

    // The watcher is in the room several checks before its snapshot is read (here its read waits on a lock; on a busy
    // machine, for the CPU): the checks leave where it starts to its snapshot, and send it nothing it has.
    const slow = await game();
    await slow.move(0);
    const lock = new pg.Client({ connectionString: cluster.databaseUrl });
    await lock.connect();
    cleanups.push(() => lock.end());
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE move IN ACCESS EXCLUSIVE MODE');
    const joining = slow.watch();
    const waiting = "SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'move'::regclass AND NOT granted";
    await waitFor('the watcher\'s snapshot read to wait on the lock', async () => (await lock.query(waiting)).rows[0].n > 0);
    await new Promise((resolve) => setTimeout(resolve, 4 * checkMs));
    await lock.query('COMMIT');
    const slowly = await joining;
    const last = await slow.move(1);
    await slowly.watcher.waitForVersion(last);
    expect(slowly.received()).toEqual([last]);
  }, 90_000);
});
