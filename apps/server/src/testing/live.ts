import type { AddressInfo } from 'node:net';
import { legalMoves, newGame, play, type Move, type Player, type RuleOptions } from '@oanquan/rules';
import {
  unpackEnvelope,
  type AccountResponse,
  type Ack,
  type ClientEventName,
  type ClientToServerEvents,
  type MatchEventEnvelope,
  type PhraseMessage,
  type Presence,
  type QueueMatched,
  type QueueStatus,
  type RoomResponse,
  type ServerToClientEvents,
  type SessionResponse,
} from '@oanquan/protocol';
import { testRateLimits } from '@oanquan/testkit';
import { io as connect, type Socket } from 'socket.io-client';
import { buildApp, type App, type AppOptions } from '../app.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { migratedDatabase, type EngineName } from './databases.js';

/** The real app on a real port over a fresh migrated database. */
export async function startApp(
  engine: EngineName,
  options: AppOptions = {},
  env: Record<string, string> = {},
): Promise<{ url: string; app: App; db: Database }> {
  const db = await migratedDatabase(engine);
  const app = await buildApp(loadConfig({ ...process.env, PORT: '0', ...testRateLimits, ...env }), db, options);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`, app, db };
}

export async function api<T>(url: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(url + path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** A POST from the client address a trusted proxy reports (the server runs with TRUST_PROXY). */
export async function postFrom<T>(url: string, path: string, from: string, body?: unknown, token?: string) {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: {
      'x-forwarded-for': from,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T, retryAfter: response.headers.get('retry-after') };
}

export async function newGuest(url: string): Promise<SessionResponse> {
  return (await api<SessionResponse>(url, '/api/session', { method: 'POST' })).body;
}

let accountsMade = 0;

/** A guest who kept their account: the token of the session keeping it opened, and what signs them in again. */
export async function newAccount(url: string): Promise<SessionResponse & { username: string; password: string }> {
  const guest = await newGuest(url);
  const username = `player_${process.pid}_${++accountsMade}`.slice(0, 24);
  const password = 'correct horse battery';
  const kept = await api<AccountResponse>(url, '/api/account', { token: guest.token, body: { username, password } });
  if (kept.status !== 201) throw new Error(`account not kept: ${kept.status} ${JSON.stringify(kept.body)}`);
  return { token: kept.body.token!, player: { id: guest.player.id, name: kept.body.player.name }, username, password };
}

export async function newRoom(url: string, token: string, body: unknown = {}): Promise<RoomResponse> {
  const { status, body: room } = await api<RoomResponse>(url, '/api/rooms', { token, body });
  if (status !== 201) throw new Error(`room not created: ${status} ${JSON.stringify(room)}`);
  return room;
}

/**
 * Two guests in a new room, seated and past the opener (rock beats scissors:
 * seat 0 moves first), each connected to the server given, which may be two
 * processes. The caller closes the clients.
 */
export async function openedGame(urls: readonly [string, string], options: { reconnection?: boolean; room?: unknown } = {}) {
  const [alice, bob] = await Promise.all([newGuest(urls[0]), newGuest(urls[1])]);
  const room = await newRoom(urls[0], alice.token, options.room);
  const a = await TestClient.connect(urls[0], alice.token, options);
  const b = await TestClient.connect(urls[1], bob.token, options);
  await a.request('room:join', { code: room.code });
  await b.request('room:join', { code: room.code });
  await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
  const opened = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
  if (!opened.ok) throw new Error(opened.code);
  return { alice, bob, room, a, b, version: opened.version };
}

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A real socket.io-client that records every match event it is sent. */
export class TestClient {
  readonly events: MatchEventEnvelope[] = [];
  readonly presence: Presence[] = [];
  readonly queue: Array<{ matched?: QueueMatched; status?: QueueStatus }> = [];
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: ClientSocket) {
    socket.on('match:event', (wire) => {
      this.events.push(unpackEnvelope(wire));
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('presence', (presence) => {
      this.presence.push(presence);
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('queue:matched', (matched) => {
      this.queue.push({ matched });
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('queue:status', (status) => {
      this.queue.push({ status });
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Waits until `test` holds of what this client has received. */
  async until(test: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  /** `address`: the client's address as a proxy would tell it (X-Forwarded-For), for a server that trusts the loopback proxy. */
  static async connect(url: string, token: string, options: { reconnection?: boolean; address?: string } = {}): Promise<TestClient> {
    const extraHeaders = options.address ? { 'x-forwarded-for': options.address } : undefined;
    const socket: ClientSocket = connect(url, { auth: { token }, transports: ['websocket'], reconnection: options.reconnection ?? false, forceNew: true, extraHeaders });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return new TestClient(socket);
  }

  /** Payloads are `unknown` on purpose: the tests send malformed ones too. */
  request<E extends ClientEventName>(event: E, payload: unknown): Promise<Ack<E>> {
    const timed = this.socket.timeout(10_000) as unknown as { emitWithAck(event: string, payload: unknown): Promise<Ack<E>> };
    return timed.emitWithAck(event, payload);
  }

  get matched(): QueueMatched | undefined {
    return this.queue.find((q) => q.matched)?.matched;
  }

  /** The highest version seen so far. */
  get version(): number {
    return this.events.at(-1)?.version ?? 0;
  }

  waitForVersion(version: number, timeoutMs = 10_000): Promise<void> {
    return this.until(() => this.version >= version, `version ${version} (at ${this.version})`, timeoutMs);
  }

  /** Asks for what this client missed and records it, as a client does after a reconnect. */
  async resync(matchId: string): Promise<void> {
    const ack = await this.request('sync', { matchId, version: this.version });
    if (!ack.ok || !('events' in ack)) throw new Error(`sync answered ${JSON.stringify(ack)}`);
    for (const envelope of ack.events.map(unpackEnvelope)) {
      if (envelope.version > this.version) this.events.push(envelope);
    }
  }

  close(): void {
    this.socket.close();
  }
}

/** A whole game's moves, chosen by a seeded generator from the legal ones, so every run plays the same game. */
export function scriptedGame(rules: RuleOptions, first: Player, seed = 7): Move[] {
  let state = newGame({ rules, first });
  let x = seed;
  const moves: Move[] = [];
  while (state.position.status === 'playing') {
    const legal = legalMoves(state);
    x = (x * 1103515245 + 12345) % 2147483648;
    const move = legal[x % legal.length]!;
    const result = play(state, move);
    if (!result.ok) throw new Error(result.code);
    state = result.state;
    moves.push(move);
  }
  return moves;
}

/** Every quick phrase a client is sent, in order. */
export function heard(client: TestClient): PhraseMessage[] {
  const messages: PhraseMessage[] = [];
  client.socket.on('phrase', (message) => messages.push(message));
  return messages;
}
