// How the bench's clients start and join a game against the computer (the
// victim's, in bot-attack.bench.ts, and the attacker's, in bot-attack-clients.ts).

import type { RoomResponse, Seat } from '@oanquan/protocol';
import { TestClient } from '../src/testing/live.js';

export const BOT_LEVEL = 8;

/** A game against the computer made, joined and past the opener, by `endsAt` at the latest. */
export async function botGame(url: string, guest: { token: string }, address: string, created?: RoomResponse, endsAt = performance.now() + 120_000): Promise<{ client: TestClient; room: RoomResponse; seat: Seat }> {
  const started = created ? { room: created } : await startGame(url, guest.token, address);
  if (!started.room) throw new Error(started.refused);
  const room = started.room;
  // The socket comes from the same address as the request that made the game, as a browser's would.
  const client = await TestClient.connect(url, guest.token, { address });
  const joined = await client.request('room:join', { code: room.code });
  if (!joined.ok) throw new Error(joined.code);
  for (let round = 1; !client.events.some((e) => e.event.type === 'started'); round++) {
    const ack = await client.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    if (!ack.ok && ack.code !== 'NOT_IN_OPENER') throw new Error(ack.code);
    const left = endsAt - performance.now();
    await client
      .until(() => client.events.some((e) => (e.event.type === 'opener-round' && e.event.round === round) || e.event.type === 'started'), 'the opener', Math.max(1, left))
      .catch((error: unknown) => {
        client.close();
        throw error;
      });
  }
  return { client, room, seat: joined.seat as Seat };
}

/** A new game, or why not: a refusal's status and code, or what broke the request. */
export async function startGame(url: string, token: string, address: string): Promise<{ room?: RoomResponse; refused?: string }> {
  try {
    const response = await fetch(`${url}/api/bot-games`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ level: BOT_LEVEL }),
    });
    const body = (await response.json()) as RoomResponse & { code: string };
    return response.status === 201 ? { room: body } : { refused: `${response.status} ${body.code}` };
  } catch (error) {
    return { refused: `no answer: ${error instanceof Error ? error.message : String(error)}` };
  }
}
