import type { IncomingMessage } from 'node:http';
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyBaseLogger } from 'fastify';
import {
  clientEvents,
  ErrorCode,
  SESSION_COOKIE,
  type Ack,
  type ClientEventName,
  type ClientPayload,
  type ErrorBody,
} from '@oanquan/protocol';
import { asRefusal } from '../errors.js';
import type { Counters } from '../limits/counters.js';
import type { PlayerService } from '../players/player-service.js';
import { crossSiteRefusal } from '../http/same-site.js';
import { parseInput } from '../http/validate.js';
import { ConnectionSlots } from './connection-slots.js';
import { eventHandlers, type EventServices } from './event-handlers.js';
import { playerChannel, sessionChannel, type GameServer, type GameSocket } from '../realtime/game-server.js';
import { EventsInFlight } from './events-in-flight.js';
import { PlayerRateLimiter } from './player-rate-limiter.js';
import { defaultSocketLimits, type SocketLimits } from './socket-limits.js';
import { refusalOf } from './socket-parser.js';
import { TokenBucket } from './token-bucket.js';

/** Socket.IO's acknowledgement: it sends whatever it is given. */
type Acknowledge = (answer: unknown) => void;

/**
 * The socket edge: authenticate at the handshake within the connection
 * limits, then for every event check rate, size and name, parse the payload,
 * delegate to the match service and acknowledge. Handlers hold no game logic.
 * Every failure ends in an acknowledgement or a disconnection, never in an
 * exception past this layer. Answers the events in flight, which a draining
 * process closes before it lets its sockets go.
 */
export function attachSocketHandlers(
  io: GameServer,
  services: EventServices & { players: PlayerService; counters: Counters },
  log: FastifyBaseLogger,
  socketLimits: SocketLimits = defaultSocketLimits,
  addressOf: (request: IncomingMessage) => string = (request) => request.socket.remoteAddress ?? '',
  schemeOf: (request: IncomingMessage) => 'http' | 'https' = () => 'http',
): EventsInFlight {
  const inFlight = new EventsInFlight();
  // In the limits' counters: across the cluster with Redis, like the rate limits.
  const playerSlots = new ConnectionSlots(socketLimits.maxSocketsPerPlayer, services.counters, 'player');
  const addressSlots = new ConnectionSlots(socketLimits.maxSocketsPerAddress, services.counters, 'address');
  const rates = new PlayerRateLimiter(socketLimits.rateBurst, socketLimits.ratePerSecond);

  // Slots are given back by whichever comes first: the connection closes
  // mid-handshake (before any 'disconnect'), or the connected socket leaves.
  // The handshake's closure is let go once connected, so an idle socket keeps
  // none of its own (with release-requests.ts, 12.3 → 10.9 KB of heap per idle
  // socket): its slots are read back from socket.data as it leaves.
  const handshakes = new WeakMap<GameSocket, () => void>();
  io.use((socket, next) => {
    const refuse = (body: ErrorBody) => next(Object.assign(new Error(body.message), { data: body }));
    // Another site's page could open a socket that carries this site's cookie.
    const crossSite = crossSiteRefusal(socket.request, schemeOf(socket.request));
    if (crossSite) return refuse({ ok: false, code: ErrorCode.CrossSite, message: crossSite });
    const address = addressOf(socket.request);
    let addressHeld = false;
    let playerId: string | undefined;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      socket.conn.off('close', release);
      handshakes.delete(socket);
      if (addressHeld) addressSlots.give(address, socket.id);
      if (playerId !== undefined) playerSlots.give(playerId, socket.id);
    };
    socket.conn.on('close', release);
    handshakes.set(socket, release);
    // The address is checked before the token, so a full address costs no database lookup.
    (async () => {
      if (!(await addressSlots.take(address, socket.id))) {
        release();
        return refuse(tooManyConnections(`At most ${socketLimits.maxSocketsPerAddress} connections from one address`));
      }
      // Closed while the store answered: the place just taken goes back at once.
      if (released) return addressSlots.give(address, socket.id);
      addressHeld = true;
      const { player, session, hasRow } = await services.players.identify(handshakeToken(socket));
      if (released) return;
      if (!(await playerSlots.take(player.id, socket.id))) {
        release();
        return refuse(tooManyConnections(`At most ${socketLimits.maxSocketsPerPlayer} connections per player`));
      }
      if (released) return playerSlots.give(player.id, socket.id);
      playerId = player.id;
      socket.data.player = player;
      socket.data.sessionId = session?.id ?? null;
      socket.data.hasRow = hasRow;
      socket.data.address = address;
      next();
    })().catch((error: unknown) => {
      release();
      refuse(asRefusal(error)?.toBody() ?? internal());
    });
  });

  const handlers = eventHandlers(services);
  const strikesOf = new WeakMap<GameSocket, TokenBucket>();
  // Lines about a socket name its player; lines about a match name the match too.
  // Made when there is something to say, so an idle socket holds no logger.
  const logOf = (socket: GameSocket, matchId?: string) =>
    log.child({ playerId: socket.data.player.id, socketId: socket.id, ...(matchId === undefined ? {} : { matchId }) });

  const refuse = (socket: GameSocket, ack: Acknowledge | undefined, code: ErrorBody['code'], message: string) => {
    ack?.({ ok: false, code, message });
    if (code === ErrorCode.RateLimited) services.metrics?.rateLimited.inc({ edge: 'socket' });
    // A socket's bucket of refusals is made at its first refusal: most sockets never draw one.
    let strikes = strikesOf.get(socket);
    if (!strikes) strikesOf.set(socket, (strikes = new TokenBucket(socketLimits.maxRefusals, 1)));
    if (!strikes.take()) {
      logOf(socket).warn({ address: socket.data.address }, 'socket disconnected for flooding');
      socket.disconnect(true);
    }
  };

  const dispatch = <E extends ClientEventName>(socket: GameSocket, event: E, payload: unknown, ack: (answer: Ack<E>) => void) => {
    const matchId = typeof payload === 'object' && payload !== null ? (payload as { matchId?: unknown }).matchId : undefined;
    const eventLog = () => logOf(socket, typeof matchId === 'string' ? matchId.slice(0, 64) : undefined);
    const handle = handlers[event] as (socket: GameSocket, payload: ClientPayload<E>) => Promise<Ack<E>>;
    if (!inFlight.take()) return ack({ ok: false, code: ErrorCode.Unavailable, message: 'This server is leaving; send it again once reconnected' } as Ack<E>);
    // Started here rather than in a then(): a move waits for no turn of the microtask queue before it is handled.
    let answer: Promise<Ack<E>>;
    try {
      answer = handle(socket, parseInput(clientEvents[event], payload) as ClientPayload<E>);
    } catch (error) {
      answer = Promise.reject(error as Error);
    }
    answer
      .then(ack, (error: unknown) => {
        const refusal = asRefusal(error);
        if (refusal?.code === ErrorCode.Unavailable) {
          services.metrics?.databaseUnavailable.inc({ edge: 'socket' });
          eventLog().warn({ err: error, event }, 'database unreachable');
        }
        if (refusal) return ack(refusal.toBody());
        eventLog().error({ err: error, event }, 'socket event failed');
        ack(internal());
      })
      .then(
        () => inFlight.done(),
        (error: unknown) => {
          inFlight.done();
          eventLog().error({ err: error, event }, 'socket acknowledgement failed');
          socket.disconnect(true);
        },
      );
  };

  // Every event goes through here, known and unknown alike, and is handled
  // here: it never reaches the socket's own listeners, so none are made. An
  // event without an acknowledgement is never answered, but it still costs a token.
  const receive = (socket: GameSocket, packet: unknown[]) => {
    try {
      const last = packet.at(-1);
      const ack = typeof last === 'function' ? (last as Acknowledge) : undefined;
      if (!rates.take(socket.data.player.id)) return refuse(socket, ack, ErrorCode.RateLimited, 'Too many messages; slow down');
      if (!ack) return refuse(socket, undefined, ErrorCode.BadRequest, 'An event without an acknowledgement is dropped');
      const refusal = refusalOf(packet);
      if (refusal) return refuse(socket, ack, refusal.code, refusal.message);
      const event = packet[0];
      if (typeof event !== 'string' || !Object.hasOwn(clientEvents, event)) {
        return refuse(socket, ack, ErrorCode.BadRequest, `Unknown event "${String(event).slice(0, 64)}"`);
      }
      dispatch(socket, event as ClientEventName, packet.length === 3 ? packet[1] : undefined, ack);
    } catch (error: unknown) {
      logOf(socket).error({ err: error }, 'socket middleware failed');
      socket.disconnect(true);
    }
  };

  io.on('connection', (socket: GameSocket) => {
    const release = handshakes.get(socket);
    if (release) socket.conn.off('close', release);
    handshakes.delete(socket);
    socket.use((packet) => receive(socket, packet));
    // Messages for this player wherever they are (queue pairings), from any process.
    const { sessionId } = socket.data;
    void socket.join(sessionId === null ? playerChannel(socket.data.player.id) : [playerChannel(socket.data.player.id), sessionChannel(sessionId)]);
    socket.on('disconnecting', leaving);
  });

  // The rooms a socket was in are gone by the time 'disconnect' fires, so they are read as it goes.
  function leaving(this: GameSocket): void {
    const socket = this;
    addressSlots.give(socket.data.address, socket.id);
    playerSlots.give(socket.data.player.id, socket.id);
    const rooms = [...socket.rooms].filter((room) => room.startsWith('room:')).map((room) => room.slice('room:'.length));
    socket.once('disconnect', () => {
      for (const code of rooms) services.presence.refresh(code);
      services.matchmaker.disconnected(socket.id).catch((error: unknown) => logOf(socket).error({ err: error }, 'leaving the queue failed'));
    });
  }
  return inFlight;
}

/** Scripts and tests hand the token in `auth.token`; a browser's socket carries the session cookie. */
function handshakeToken(socket: GameSocket): unknown {
  const given = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  if (given !== undefined) return given;
  const cookies = socket.request.headers.cookie;
  return cookies ? fastifyCookie.parse(cookies)[SESSION_COOKIE] : undefined;
}

function tooManyConnections(message: string): ErrorBody {
  return { ok: false, code: ErrorCode.TooManyConnections, message };
}

function internal(): ErrorBody {
  return { ok: false, code: ErrorCode.Internal, message: 'Internal error' };
}
