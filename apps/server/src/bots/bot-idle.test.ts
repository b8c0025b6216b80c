import type { RoomResponse, Seat } from '@oanquan/protocol';
import { legalMoves, newGame, play, type Move, type Player } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { api, newGuest } from '../testing/live.js';
import { appForSuite } from '../testing/suite-app.js';

const IDLE_MS = 1500;
const SWEEP_MS = 200;
const quick = { BOT_THINK_MS: '20', BOT_MOVE_DELAY_MS: '0', BOT_SWEEP_MS: String(SWEEP_MS), OPENER_TIMEOUT_MS: '200', BOT_GAME_IDLE_MS: String(IDLE_MS) };

/**
 * A person who keeps the room open and does nothing in an untimed game
 * against the computer: no clock runs out and they are never gone, so the
 * idle limit ends it, counted from the last move.
 */
describe.each(engines)('an idle person against the computer on %s', (engine) => {
  const suite = appForSuite(engine, {}, quick);

  it('loses by abandonment once their turn has lasted the idle limit, counted afresh from each move', async () => {
    const guest = await newGuest(suite.url);
    const created = await api<RoomResponse>(suite.url, '/api/bot-games', { token: guest.token, body: { level: 1 } });
    expect(created.status).toBe(201);
    const { matchId, code } = created.body;
    const client = await suite.client(guest.token);
    const joined = await client.request('room:join', { code });
    if (!joined.ok) throw new Error(joined.code);
    const seat = joined.seat as Seat;
    const computer = (1 - seat) as Seat;
    // The person never chooses: the computer wins the toss once the opener lapses, and moves.
    const moved = () => client.events.filter((e) => e.event.type === 'moved');
    await client.until(() => moved().length === 1, "the computer's first move", 10_000);
    expect(client.events.find((e) => e.event.type === 'started')?.event).toMatchObject({ first: computer });

    // One move of the person's, well within the limit, then nothing.
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 3));
    let state = newGame({ rules: created.body.rules, first: computer as Player });
    const moves = client.events.flatMap((e) => (e.event.type === 'moved' ? [{ square: e.event.square, dir: e.event.dir } as Move] : []));
    for (const move of moves) {
      const next = play(state, move);
      if (!next.ok) throw new Error(next.code);
      state = next.state;
    }
    const mine = legalMoves(state)[0]!;
    const ack = await client.request('move', { matchId, moveId: 'p1', version: client.version, ...mine });
    if (!ack.ok) throw new Error(ack.code);
    await client.until(() => moved().length === 3, "the computer's reply");
    const reply = moved().at(-1)!;

    await client.until(() => client.events.some((e) => e.event.type === 'ended'), 'the end', IDLE_MS + 10 * SWEEP_MS + 5000);
    const ended = client.events.find((e) => e.event.type === 'ended')!;
    expect(ended.event).toMatchObject({ result: { winner: computer, reason: 'abandon' }, ratings: null });
    // Counted from the computer's reply, not from the first move: the person's own move reset it.
    const after = Date.parse(ended.at) - Date.parse(reply.at);
    console.info(`${engine}: the idle person's game ended ${after} ms after the computer's last move (limit ${IDLE_MS} ms, sweep every ${SWEEP_MS} ms)`);
    expect(after).toBeGreaterThanOrEqual(IDLE_MS);
    expect(after).toBeLessThan(IDLE_MS + 10 * SWEEP_MS + 2000);
    expect(client.socket.connected).toBe(true);
  });
});
