import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RoomResponse, Seat } from '@oanquan/protocol';
import { startServerProcess, type ServerProcess } from '@oanquan/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { engines, scratchTarget } from '../testing/databases.js';
import { api, newGuest, TestClient } from '../testing/live.js';

describe.each(engines)('a server killed mid-game against the computer on %s', (engine) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('the computer picks up where it was: its pending move is made by the restarted server', async () => {
    const env: Record<string, string> = { LOG_LEVEL: 'warn', BOT_THINK_MS: '20', BOT_SWEEP_MS: '500' };
    if (engine === 'pglite') {
      const dir = await mkdtemp(path.join(tmpdir(), 'oanquan-bot-crash-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      env.PGLITE_DATA_DIR = dir;
    } else {
      const scratch = await scratchTarget('postgresql');
      cleanups.push(scratch.drop);
      if (scratch.target.kind === 'postgresql') env.DATABASE_URL = scratch.target.url;
    }
    // Before the crash the computer waits long before moving, so the server dies while it is to move.
    let server: ServerProcess = await startServerProcess({ ...env, BOT_MOVE_DELAY_MS: '60000' });
    cleanups.push(async () => {
      server.child.kill('SIGKILL');
      await server.exited;
    });
    const port = Number(new URL(server.url).port);
    const guest = await newGuest(server.url);
    const { body: room } = await api<RoomResponse>(server.url, '/api/bot-games', { token: guest.token, body: { level: 4 } });
    const client = await TestClient.connect(server.url, guest.token, { reconnection: true });
    cleanups.push(async () => client.close());
    const joined = await client.request('room:join', { code: room.code });
    if (!joined.ok) throw new Error(joined.code);
    const seat = joined.seat as Seat;

    // Rock until a round is decided, whoever wins it.
    let version = joined.snapshot.version;
    for (let round = 1; ; round++) {
      const ack = await client.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
      if (!ack.ok) throw new Error(ack.code);
      const decided = () => client.events.find((e) => e.event.type === 'opener-round' && e.event.round === round);
      // The computer may choose after the person: the round is decided by its choice then.
      await client.until(() => decided() !== undefined, `round ${round}`);
      // A round with a winner ends the opener; its `started` event may still be on its way.
      const outcome = decided()!.event;
      if (outcome.type === 'opener-round' && outcome.winner !== null) break;
      if (round > 30) throw new Error('no opener decided');
    }
    await client.until(() => client.events.some((e) => e.event.type === 'started'), 'the start');
    version = client.version;
    const started = client.events.find((e) => e.event.type === 'started')!.event;
    const first = started.type === 'started' ? started.first : 0;
    // When the computer won the toss it is to move already (and waits a minute); otherwise the person moves first.
    if (first === seat) {
      const ack = await client.request('move', { matchId: room.matchId, moveId: 'h1', version, square: 6 * seat + 3, dir: 1 });
      if (!ack.ok) throw new Error(ack.code);
      version = ack.version;
    }
    const before = client.events.filter((e) => e.event.type === 'moved').length;

    const reconnected = new Promise((resolve) => client.socket.io.once('reconnect', resolve));
    server.child.kill('SIGKILL');
    await server.exited;
    server = await startServerProcess({ ...env, BOT_MOVE_DELAY_MS: '0' }, { port });
    await reconnected;
    await client.request('room:join', { code: room.code });
    await client.resync(room.matchId);

    // Nobody else acts: the restarted server makes the computer's move on its own.
    await client.until(() => client.events.filter((e) => e.event.type === 'moved').length > before, 'the computer’s move after the restart', 30_000);
    // Turns alternate from the first mover: the latest move is the computer's.
    const moves = client.events.filter((e) => e.event.type === 'moved').length;
    expect((first + moves - 1) % 2).toBe(seat === 0 ? 1 : 0);
    // Nothing lost or doubled across the crash.
    const versions = client.events.map((e) => e.version);
    expect(versions).toEqual(Array.from({ length: versions.length }, (_, i) => versions[0]! + i));
  }, 120_000);
});
