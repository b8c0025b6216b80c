import { PRESETS } from '@oanquan/rules';
import type { Clocks, MatchEventEnvelope } from '@oanquan/protocol';
import { newGuest, newRoom, scriptedGame, TestClient } from './live.js';

export type Table = Awaited<ReturnType<typeof newTable>>;

/** Two players seated in a new timed room (60 s each), and a third guest, each with a client; the caller closes them. */
async function newTable(url: string) {
  const [alice, bob, carol] = await Promise.all([newGuest(url), newGuest(url), newGuest(url)]);
  const room = await newRoom(url, alice.token, { timeControl: { initialSeconds: 60, incrementSeconds: 0 } });
  const clients = await Promise.all([alice, bob, carol].map((guest) => TestClient.connect(url, guest.token)));
  const [a, b, c] = clients as [TestClient, TestClient, TestClient];
  await a.request('room:join', { code: room.code });
  await b.request('room:join', { code: room.code });
  return { room, tokens: [alice.token, bob.token, carol.token] as const, a, b, c, close: () => clients.forEach((client) => client.close()) };
}

const ok = <T extends { ok: boolean }>(ack: T): Extract<T, { ok: true }> => {
  if (!ack.ok) throw new Error(JSON.stringify(ack));
  return ack as Extract<T, { ok: true }>;
};

/**
 * Three matches of the server at `url`, each with a deadline running, as an
 * outage would find them: an opener half played (seat 1 must choose), a
 * match waiting for its first move, and one whose seat 1 clock runs. Each
 * with the instant its deadline began to run, and the version it is at.
 */
export async function tablesWithDeadlines(url: string) {
  const [one, two] = scriptedGame(PRESETS.classic, 0);
  const opener = await newTable(url);
  const chose = ok(await opener.a.request('opener:choose', { matchId: opener.room.matchId, choice: 'rock' }));
  const openerFrom = Date.now();
  const first = await newTable(url);
  await first.a.request('opener:choose', { matchId: first.room.matchId, choice: 'rock' });
  const started = ok(await first.b.request('opener:choose', { matchId: first.room.matchId, choice: 'scissors' }));
  const firstFrom = Date.now();
  const clock = await newTable(url);
  await clock.a.request('opener:choose', { matchId: clock.room.matchId, choice: 'rock' });
  const opened = ok(await clock.b.request('opener:choose', { matchId: clock.room.matchId, choice: 'scissors' }));
  const moved = ok(await clock.a.request('move', { matchId: clock.room.matchId, moveId: 'a1', version: opened.version, ...one }));
  await clock.a.waitForVersion(moved.version);
  // Seat 1's clock starts once the first move's sowing allowance is over.
  const clockFrom = clockStart(clock.a.events) ?? Date.now();
  return {
    opener: { ...opener, version: chose.version, from: openerFrom },
    first: { ...first, version: started.version, from: firstFrom },
    clock: { ...clock, version: moved.version, from: clockFrom },
    moves: [one!, two!] as const,
    close: () => [opener, first, clock].forEach((table) => table.close()),
  };
}

/** When a running clock counts from: the end of its sowing allowance, or when it was read if that is later. */
function runningFrom(clocks: Clocks): number {
  return Math.max(Date.parse(clocks.asOf), clocks.startsAt ? Date.parse(clocks.startsAt) : 0);
}

/** When the running clock of the last `moved` event starts. */
function clockStart(envelopes: readonly MatchEventEnvelope[]): number | null {
  const moved = envelopes.findLast((e) => e.event.type === 'moved')?.event;
  return moved?.type === 'moved' && moved.clocks ? runningFrom(moved.clocks) : null;
}

/**
 * The deadline a client holds after these events, in epoch milliseconds: the
 * opener's, the first move's, or the end of the running clock (a running
 * clock's `asOf` is when its remaining time was read, and it stands until
 * `startsAt` when that is later).
 */
export function heldDeadline(envelopes: readonly MatchEventEnvelope[]): number | null {
  let deadline: number | null = null;
  for (const { event } of envelopes) {
    const clocks = event.type === 'moved' || event.type === 'outage-credited' ? event.clocks : null;
    const clockEnd = clocks && clocks.running !== null ? runningFrom(clocks) + clocks.remainingMs[clocks.running] : null;
    if (event.type === 'opener-chosen' && event.deadline) deadline = Date.parse(event.deadline);
    if (event.type === 'started') deadline = Date.parse(event.firstMoveDeadline);
    if (event.type === 'moved') deadline = clockEnd;
    if (event.type === 'outage-credited') {
      const next = event.openerDeadline ?? event.firstMoveDeadline;
      deadline = next ? Date.parse(next) : clockEnd;
    }
  }
  return deadline;
}

/** The outage-credited event a client received, once it has. */
export async function creditReceived(client: TestClient) {
  await client.until(() => client.events.some((e) => e.event.type === 'outage-credited'), 'the outage credit', 20_000);
  const envelope = client.events.find((e) => e.event.type === 'outage-credited')!;
  if (envelope.event.type !== 'outage-credited') throw new Error('not a credit');
  return { version: envelope.version, ...envelope.event };
}
