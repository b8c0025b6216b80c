import { legalMoves, newGame, play, PRESETS, type Move, type RuleOptions, type State } from '@oanquan/rules';
import type { ClientAcks, ClientEventName, ClientToServerEvents, Clocks, ErrorBody, MatchSnapshot, RoomResponse, ServerToClientEvents, SessionResponse, TimeControl } from '@oanquan/protocol';
import { io, type Socket } from 'socket.io-client';
import { seeded } from './harness.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

async function post<T>(url: string, path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function connect(url: string, token: string): Promise<ClientSocket> {
  const socket: ClientSocket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

async function request<E extends ClientEventName>(socket: ClientSocket, event: E, payload: unknown): Promise<ClientAcks[E]> {
  const timed = socket.timeout(10_000) as unknown as { emitWithAck(event: E, payload: unknown): Promise<ClientAcks[E] | ErrorBody> };
  const answer = await timed.emitWithAck(event, payload);
  if (!answer.ok) throw new Error(`${event} refused: ${answer.code} ${answer.message}`);
  return answer;
}

/** A room's match as a new spectator is shown it now: the server's own clocks and deadlines. */
export async function spectatorSnapshot(url: string, roomCode: string): Promise<MatchSnapshot> {
  const guest = await post<SessionResponse>(url, '/api/session', {});
  const socket = await connect(url, guest.token);
  try {
    return (await request(socket, 'room:join', { code: roomCode })).snapshot;
  } finally {
    socket.close();
  }
}

export interface FinishedGame {
  matchId: string;
  roomCode: string;
  players: [SessionResponse, SessionResponse];
  rules: RuleOptions;
  moves: Move[];
  final: State;
}

/** Two new players: guests, or accounts named `usernames`. */
async function newPlayers(url: string, usernames?: readonly [string, string]): Promise<[SessionResponse, SessionResponse]> {
  const guests = [await post<SessionResponse>(url, '/api/session', {}), await post<SessionResponse>(url, '/api/session', {})];
  return (await Promise.all(
    guests.map(async (guest, i) => {
      const username = usernames?.[i];
      if (!username) return guest;
      // Keeping an account ends the guest token: the account is reached by the session it answers with.
      const kept = await post<{ token?: string }>(url, '/api/account', { username, password: 'correct horse battery' }, guest.token);
      return { ...guest, token: kept.token ?? guest.token, player: { ...guest.player, name: username } };
    }),
  )) as [SessionResponse, SessionResponse];
}

/** A match being played over two players' sockets, one move at a time. */
export interface LiveGame {
  matchId: string;
  roomCode: string;
  players: [SessionResponse, SessionResponse];
  rules: RuleOptions;
  moves: Move[];
  state: State;
  /** The player to move plays `move`, else the seeded pick among the legal moves; resolves once the server has taken it. */
  play(move?: Move): Promise<void>;
  close(): void;
}

/**
 * Two new players in a classic room, past the opener (seat 0 moves first),
 * as two real clients would be; `usernames` makes them accounts named so.
 */
export async function startLiveGame(
  url: string,
  seed: number,
  timeControl: TimeControl | null = null,
  usernames?: readonly [string, string],
): Promise<LiveGame> {
  const players = await newPlayers(url, usernames);
  const room = await post<RoomResponse>(url, '/api/rooms', { rules: { preset: 'classic' }, timeControl }, players[0].token);
  const sockets = [await connect(url, players[0].token), await connect(url, players[1].token)] as const;
  await request(sockets[0], 'room:join', { code: room.code });
  await request(sockets[1], 'room:join', { code: room.code });
  await request(sockets[0], 'opener:choose', { matchId: room.matchId, choice: 'rock' });
  let version = (await request(sockets[1], 'opener:choose', { matchId: room.matchId, choice: 'scissors' })).version;
  const choose = seeded(seed);
  const game: LiveGame = {
    matchId: room.matchId,
    roomCode: room.code,
    players,
    rules: room.rules,
    moves: [],
    state: newGame({ rules: room.rules, first: 0 }),
    async play(chosen) {
      const legal = legalMoves(game.state);
      const move = chosen ?? legal[choose(legal.length)]!;
      const answer = await request(sockets[game.state.position.toMove], 'move', {
        matchId: room.matchId,
        moveId: `m${game.moves.length + 1}`,
        version,
        square: move.square,
        dir: move.dir,
      });
      version = answer.version;
      const result = play(game.state, move);
      if (!result.ok) throw new Error(result.code);
      game.state = result.state;
      game.moves.push(move);
    },
    close() {
      for (const socket of sockets) socket.close();
    },
  };
  return game;
}

/**
 * A whole match played straight over sockets, as two real clients would,
 * for tests that need a finished match without clicking through one.
 */
export async function playFinishedGame(
  url: string,
  seed: number,
  timeControl: TimeControl | null = null,
  /** Moves played first, before the seeded random ones. */
  script: readonly Move[] = [],
  usernames?: readonly [string, string],
): Promise<FinishedGame> {
  const game = await startLiveGame(url, seed, timeControl, usernames);
  try {
    while (game.state.position.status === 'playing') await game.play(script[game.moves.length]);
    const { matchId, roomCode, players, rules, moves, state } = game;
    return { matchId, roomCode, players, rules, moves, final: state };
  } finally {
    game.close();
  }
}

/**
 * A rated match from the public queue between two new accounts, played over
 * sockets: four plies (enough to count), then the second mover resigns. The
 * first account wins. The pair's return game then starts and is left to its
 * first-move deadline (30 s by default): the loser, who was to start it,
 * loses it then.
 */
export async function playRatedGame(url: string, seed: number): Promise<{ matchId: string; winner: SessionResponse; loser: SessionResponse }> {
  const players = await newPlayers(url, [`rated_${seed}_0`, `rated_${seed}_1`]);
  const sockets = [await connect(url, players[0].token), await connect(url, players[1].token)] as const;
  try {
    const matched = sockets.map((socket) => new Promise<{ roomCode: string; matchId: string }>((resolve) => socket.once('queue:matched', resolve)));
    for (const socket of sockets) await request(socket, 'queue:join', { pool: '3+2' });
    const { roomCode, matchId } = await matched[0]!;
    const seat0 = ((await request(sockets[0], 'room:join', { code: roomCode })) as { seat: 0 | 1 }).seat;
    await request(sockets[1], 'room:join', { code: roomCode });
    const bySeat = seat0 === 0 ? sockets : ([sockets[1], sockets[0]] as const);
    await request(sockets[0], 'opener:choose', { matchId, choice: 'rock' });
    let version = (await request(sockets[1], 'opener:choose', { matchId, choice: 'scissors' })).version;
    let state = newGame({ rules: PRESETS.classic, first: seat0 });
    const choose = seeded(seed);
    for (let ply = 0; ply < 4; ply++) {
      const legal = legalMoves(state);
      const move = legal[choose(legal.length)]!;
      version = (await request(bySeat[state.position.toMove], 'move', { matchId, moveId: `r${ply}`, version, ...move })).version;
      const result = play(state, move);
      if (!result.ok) throw new Error(result.code);
      state = result.state;
    }
    await request(sockets[1], 'resign', { matchId });
    return { matchId, winner: players[0], loser: players[1] };
  } finally {
    for (const socket of sockets) socket.close();
  }
}

/**
 * A guest watching a room over a socket of its own: `clocks` asks the server
 * for the match as it stands (a spectator's join only reads), so a test can
 * compare what a page shows with the server's own clocks.
 */
export async function watchRoom(url: string, code: string): Promise<{ clocks(): Promise<Clocks | null>; close(): void }> {
  const guest = await post<SessionResponse>(url, '/api/session', {});
  const socket = await connect(url, guest.token);
  return {
    clocks: async () => (await request(socket, 'room:join', { code })).snapshot.clocks,
    close: () => socket.close(),
  };
}
