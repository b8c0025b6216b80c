import { PRESETS } from '@oanquan/rules';
import { type MatchList, type MatchRecord, type MatchSnapshot, type PlayerProfile, type RoomResponse, type Seat } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { HumanSide } from '../testing/human-side.js';
import { metricSample } from '../testing/metric-sample.js';
import { api, newGuest, startApp, TestClient } from '../testing/live.js';

const fast = { BOT_THINK_MS: '500', BOT_MOVE_DELAY_MS: '0', BOT_SWEEP_MS: '500', ANALYSIS_DEPTH: '3' };
const shortGame = { options: { ...PRESETS.classic, plyLimit: 24 } };

describe.each(engines)('playing the computer on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine, {}, { ...fast, METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' }));
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await app.close();
  });

  async function botGame(token: string, body: unknown) {
    const created = await api<RoomResponse>(url, '/api/bot-games', { token, body });
    expect(created.status).toBe(201);
    const room = created.body;
    const client = await TestClient.connect(url, token);
    clients.push(client);
    const joined = await client.request('room:join', { code: room.code });
    if (!joined.ok) throw new Error(joined.code);
    return { room, client, seat: joined.seat as Seat, snapshot: (joined as { snapshot: MatchSnapshot }).snapshot };
  }

  /** Until the computer's hand for that round is stored (it may choose before the person's socket joins, so no event reaches it). */
  async function botChose(matchId: string, bot: Seat, round: number): Promise<string> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const row = await db.prisma.openerRound.findUnique({ where: { matchId_round: { matchId, round } } });
      const choice = bot === 0 ? row?.choice0 : row?.choice1;
      if (choice) return choice;
      if (Date.now() > deadline) throw new Error(`the computer did not choose in round ${round}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('refuses a bad level, a missing token and a rated game against the computer', async () => {
    const guest = await newGuest(url);
    expect((await api(url, '/api/bot-games', { token: guest.token, body: { level: 9 } })).body).toMatchObject({ code: 'BAD_REQUEST' });
    expect((await api(url, '/api/bot-games', { token: guest.token, body: { level: 3, rated: true } })).body).toMatchObject({ code: 'BAD_REQUEST' });
    expect((await api(url, '/api/bot-games', { body: { level: 3 } })).status).toBe(401);
    expect(await db.prisma.room.count()).toBe(0);
  });

  it('keeps the computer’s hand hidden until the person has chosen, then reveals both', async () => {
    const guest = await newGuest(url);
    const { room, client, seat } = await botGame(guest.token, { level: 2 });
    const bot: Seat = seat === 0 ? 1 : 0;
    const botHand = await botChose(room.matchId, bot, 1);
    expect(['rock', 'paper', 'scissors']).toContain(botHand);

    // Nothing a client can see names it: not the events, not a fresh snapshot, not the room, not the record.
    const rejoin = await client.request('room:join', { code: room.code });
    const record = await api<MatchRecord>(url, `/api/matches/${room.matchId}`);
    const visible = JSON.stringify([client.events, rejoin, record.body, (await api(url, `/api/rooms/${room.code}`)).body]);
    expect(visible).not.toMatch(/rock|paper|scissors/);
    expect((rejoin as { snapshot: MatchSnapshot }).snapshot.opener.chosen[bot]).toBe(true);

    // The person's hand beats the computer's: the round is decided at once and shows both.
    const beats = { rock: 'paper', paper: 'scissors', scissors: 'rock' } as const;
    const ack = await client.request('opener:choose', { matchId: room.matchId, choice: beats[botHand as keyof typeof beats] });
    expect(ack.ok).toBe(true);
    await client.until(() => client.events.some((e) => e.event.type === 'started'), 'the start');
    const round = client.events.find((e) => e.event.type === 'opener-round')!.event;
    expect(round).toMatchObject({ type: 'opener-round', winner: seat });
    expect(round.type === 'opener-round' && round.choices[bot]).toBe(botHand);
  });

  it('plays a whole game through the same path as a person: recorded, replayable, marked, never rated; it offers and accepts a rematch', async () => {
    const guest = await newGuest(url);
    const { room, client, seat, snapshot } = await botGame(guest.token, { level: 1, rules: shortGame, timeControl: { initialSeconds: 60, incrementSeconds: 0 } });
    const bot: Seat = seat === 0 ? 1 : 0;
    expect(snapshot.seats[bot]).toMatchObject({ name: 'Computer (level 1)', botLevel: 1 });
    expect(snapshot.seats[seat]).toMatchObject({ id: guest.player.id });
    expect(snapshot.status).toBe('opener');

    // Ties replay; the person keeps choosing rock until the opener is decided.
    for (let round = 1; !client.events.some((e) => e.event.type === 'started'); round++) {
      await botChose(room.matchId, bot, round);
      const ack = await client.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
      if (!ack.ok) throw new Error(ack.code);
      await client.waitForVersion(ack.version);
    }

    const human = new HumanSide(client, room.matchId, seat);
    await human.playUntilEnd(shortGame.options);
    const ended = human.events().find((e) => e.type === 'ended')!;
    expect(ended).toMatchObject({ type: 'ended', ratings: null });

    const record = (await api<MatchRecord>(url, `/api/matches/${room.matchId}`)).body;
    expect(record.status).toBe('ended');
    expect(record.rated).toBe(false);
    expect(record.players[bot]).toMatchObject({ botLevel: 1 });
    // Every ply was the person's or the computer's, alternating, each stored with its mover.
    expect(record.moves.length).toBeGreaterThan(0);
    const movers = await db.prisma.move.findMany({ where: { matchId: room.matchId }, orderBy: { ply: 'asc' }, select: { playerId: true, moveId: true } });
    expect(movers.filter((m) => m.moveId.startsWith('computer-')).length).toBe(record.moves.filter((m) => m.seat === bot).length);
    expect(movers.filter((m) => m.playerId === guest.player.id).length).toBe(record.moves.filter((m) => m.seat === seat).length);
    // Each of the computer's searches was timed where it was asked for, by level.
    const metrics = await (await fetch(`http://127.0.0.1:${app.metricsPort}/metrics`)).text();
    expect(metricSample(metrics, 'oanquan_engine_move_seconds_count', '{level="1"}')).toBe(record.moves.filter((m) => m.seat === bot).length);
    expect(metricSample(metrics, 'oanquan_engine_move_seconds', '{quantile="1",level="1"}')).toBeGreaterThan(0);
    // Nodes are counted for the searches that answered by the deadline (a late one, on a starved machine, leaves the move to a legal fallback).
    const searched = metricSample(metrics, 'oanquan_engine_move_nodes_count', '{level="1"}');
    expect(searched).toBeGreaterThan(0);
    expect(searched).toBeLessThanOrEqual(record.moves.filter((m) => m.seat === bot).length);
    expect(metricSample(metrics, 'oanquan_engine_move_nodes', '{quantile="1",level="1"}')).toBeGreaterThan(0);
    const list = (await api<MatchList>(url, `/api/matches?player=${guest.player.id}`)).body;
    expect(list.matches[0]).toMatchObject({ id: room.matchId, rated: false });
    expect(list.matches[0]!.players[bot]).toMatchObject({ botLevel: 1 });
    const profile = (await api<PlayerProfile>(url, `/api/players/${snapshot.seats[bot]!.id}`)).body;
    expect(profile).toMatchObject({ name: 'Computer (level 1)', botLevel: 1, account: false });
    const players = await db.prisma.player.findMany({ where: { id: { in: [guest.player.id, snapshot.seats[bot]!.id] } } });
    for (const player of players) expect(player).toMatchObject({ rating: 1500, ratedGames: 0 });

    // It offers a rematch; accepting starts a new match whose opener it plays again.
    await client.until(() => client.events.some((e) => e.event.type === 'rematch-offered' && e.event.seat === bot), 'the computer’s rematch offer');
    const again = await client.request('rematch', { matchId: room.matchId });
    expect(again.ok).toBe(true);
    await client.until(() => client.events.some((e) => e.event.type === 'rematch'), 'the rematch');
    const next = client.events.find((e) => e.event.type === 'rematch')!.event;
    const nextId = next.type === 'rematch' ? next.matchId : '';
    await client.until(() => client.events.some((e) => e.matchId === nextId && e.event.type === 'opener-chosen' && e.event.seat === bot), 'the computer’s hand in the rematch');
    expect((await db.prisma.match.findUniqueOrThrow({ where: { id: nextId } })).rated).toBe(false);
  }, 90_000);
});
