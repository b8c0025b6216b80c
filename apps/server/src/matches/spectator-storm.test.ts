import { PRESETS } from '@oanquan/rules';
import { limits, type MatchEvent } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { newGuest, newRoom, scriptedGame } from '../testing/live.js';
import { appForSuite } from '../testing/suite-app.js';

/** The rate limit is per player, shared by all of a player's sockets: the heaviest storm is many players with a socket each. */
const SPECTATOR_GUESTS = 200;
const MOVES = 6;
const THINK_MS = 200;
/** How much later than its sending a move may arrive under the storm; joins queued in front of it take seconds. */
const ARRIVAL_TOLERANCE_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

describe.each(engines)('a spectator storm on %s', (engine) => {
  const server = appForSuite(engine, {}, { MAX_SOCKETS_PER_ADDRESS: '1000' }, 180_000);
  const { client } = server;

  it(
    'two hundred spectators joining and leaving as fast as they may hold up no move and cost no mover any time',
    async () => {
      const [alice, bob] = await Promise.all([newGuest(server.url), newGuest(server.url)]);
      const room = await newRoom(server.url, alice.token, { timeControl: { initialSeconds: 600, incrementSeconds: 0 } });
      const players = [await client(alice.token), await client(bob.token)] as const;
      await players[0].request('room:join', { code: room.code });
      await players[1].request('room:join', { code: room.code });
      await players[0].request('opener:choose', { matchId: room.matchId, choice: 'rock' });
      const opened = await players[1].request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
      if (!opened.ok) throw new Error(opened.code);

      const guests = await Promise.all(Array.from({ length: SPECTATOR_GUESTS }, () => newGuest(server.url)));
      const crowd = await Promise.all(guests.map((guest) => client(guest.token)));

      // Each spectator socket joins and leaves in a loop, one message per 1/ratePerSecond: the most the rate limit lets through.
      const gapMs = 1000 / limits.ratePerSecond;
      let storming = true;
      const joined: number[] = [];
      const refused: string[] = [];
      const storm = crowd.map(async (spectator) => {
        while (storming) {
          for (const event of ['room:join', 'room:leave'] as const) {
            const sent = Date.now();
            const ack = await spectator.request(event, { code: room.code }).catch(() => ({ ok: false as const, code: 'NO_ANSWER' }));
            if (!ack.ok) refused.push(ack.code);
            else if (event === 'room:join') joined.push(Date.now());
            await sleep(sent + gapMs - Date.now());
          }
        }
      });
      // Every socket has sent its first join: the storm is in flight.
      await sleep(1000);

      const moves = scriptedGame(PRESETS.classic, 0).slice(0, MOVES);
      let version = opened.version;
      const played: Array<{ charged: number; sinceStart: number; running: boolean }> = [];
      const firstSent = Date.now();
      for (const [ply, move] of moves.entries()) {
        const seat = (ply % 2) as 0 | 1;
        const mover = players[seat];
        await mover.waitForVersion(version, 20_000);
        const turn = mover.events.find((e) => e.version === version)!.event;
        const clocks = clockOf(turn);
        await sleep(THINK_MS);
        const sentAt = Date.now();
        const ack = await mover.request('move', { matchId: room.matchId, moveId: `storm-${ply}`, version, square: move.square, dir: move.dir });
        expect(ack).toMatchObject({ ok: true, version: version + 1 });
        version += 1;
        await mover.waitForVersion(version, 20_000);
        const moved = mover.events.find((e) => e.version === version)!.event;
        if (moved.type !== 'moved') throw new Error(`expected a move, got ${moved.type}`);
        // A move sent within the sowing allowance, before the clock started, is charged nothing.
        const sinceStart = Math.max(0, sentAt - Date.parse(clocks.startsAt ?? clocks.asOf));
        played.push({ charged: clocks.remainingMs[seat] - moved.clocks!.remainingMs[seat], sinceStart, running: clocks.running === seat });
      }
      const joinsDuringPlay = joined.filter((at) => at >= firstSent).length;
      storming = false;
      await Promise.all(storm);

      // No clock runs before the first move; after it each mover paid from the moment the server started
      // their clock to the moment they sent, and hardly more.
      expect(played.map((move) => move.running)).toEqual(played.map((_, ply) => ply > 0));
      expect(played[0]!.charged).toBe(0);
      for (const { charged, sinceStart } of played.slice(1)) {
        expect(charged).toBeGreaterThanOrEqual(sinceStart);
        expect(charged).toBeLessThan(sinceStart + ARRIVAL_TOLERANCE_MS);
      }
      // The storm was real: the crowd kept joining while the moves were made, and the rate limit let it.
      expect(joinsDuringPlay).toBeGreaterThanOrEqual(crowd.length);
      expect(refused).toEqual([]);
    },
    180_000,
  );
});

function clockOf(event: MatchEvent) {
  const clocks = event.type === 'started' || event.type === 'moved' ? event.clocks : null;
  if (!clocks) throw new Error(`no clocks in ${event.type}`);
  return clocks;
}
