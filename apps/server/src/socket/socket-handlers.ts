import type { IncomingMessage } from 'node:http';
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyBaseLogger } from 'fastify';
import {
  clientEvents,
  ErrorCode,
  type Ack,
  type ClientEventName,
  type ClientPayload,
  type ErrorBody,
} from '@oanquan/protocol';
import { asRefusal } from '../errors.js';
import type { MatchService } from '../matches/match-service.js';
import type { Matchmaker } from '../matchmaking/matchmaker.js';
import type { PresenceService } from '../matches/presence-service.js';
import type { Metrics } from '../metrics/metrics.js';
import type { PlayerService } from '../players/player-service.js';
import { crossSiteRefusal } from '../http/same-site.js';
import { SESSION_COOKIE } from '../http/session-cookie.js';
import { parseInput } from '../http/validate.js';
import { ConnectionSlots } from './connection-slots.js';
import { playerChannel, roomChannel, sessionChannel, type GameServer, type GameSocket } from './game-server.js';
import { PlayerRateLimiter } from './player-rate-limiter.js';
import { defaultSocketLimits, type SocketLimits } from './socket-limits.js';
import { refusalOf } from './socket-parser.js';
import { TokenBucket } from './token-bucket.js';

type Acknowledge = (body: ErrorBody) => void;

/**
 * The socket edge: authenticate at the handshake within the connection
 * limits, then for every event check rate, size and name, parse the payload,
 * delegate to the match service and acknowledge. Handlers hold no game logic.
 * Every failure ends in an acknowledgement or a disconnection, never in an
 * exception past this layer.
 */
export function attachSocketHandlers(
  io: GameServer,
  services: { players: PlayerService; matches: MatchService; presence: PresenceService; matchmaker: Matchmaker; metrics?: Metrics },
  log: FastifyBaseLogger,
  socketLimits: SocketLimits = defaultSocketLimits,
  addressOf: (request: IncomingMessage) => string = (request) => request.socket.remoteAddress ?? '',
): void {
  // Per process, like the rate limits: each process behind a load balancer counts its own connections.
  const playerSlots = new ConnectionSlots(socketLimits.maxSocketsPerPlayer);
  const addressSlots = new ConnectionSlots(socketLimits.maxSocketsPerAddress);
  const rates = new PlayerRateLimiter(socketLimits.rateBurst, socketLimits.ratePerSecond);

  io.use((socket, next) => {
    const refuse = (body: ErrorBody) => next(Object.assign(new Error(body.message), { data: body }));
    // Another site's page could open a socket that carries this site's cookie.
    const crossSite = crossSiteRefusal(socket.request.headers);
    if (crossSite) return refuse({ ok: false, code: ErrorCode.CrossSite, message: crossSite });
    const address = addressOf(socket.request);
    // The address is checked before the token, so a full address costs no database lookup.
    if (!addressSlots.take(address)) {
      return refuse(tooManyConnections(`At most ${socketLimits.maxSocketsPerAddress} connections from one address`));
    }
    let playerId: string | undefined;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      socket.conn.off('close', release);
      addressSlots.give(address);
      if (playerId !== undefined) playerSlots.give(playerId);
    };
    // Whichever comes first: the socket leaves, or its connection closes (also mid-handshake, before any 'disconnect').
    socket.conn.on('close', release);
    socket.once('disconnect', release);
    services.players.identify(handshakeToken(socket)).then(
      ({ player, session }) => {
        if (released) return;
        if (!playerSlots.take(player.id)) {
          release();
          return refuse(tooManyConnections(`At most ${socketLimits.maxSocketsPerPlayer} connections per player`));
        }
        playerId = player.id;
        socket.data.player = player;
        socket.data.sessionId = session.id;
        next();
      },
      (error: unknown) => {
        release();
        refuse(asRefusal(error)?.toBody() ?? internal());
      },
    );
  });

  io.on('connection', (socket: GameSocket) => {
    const player = socket.data.player;
    const strikes = new TokenBucket(socketLimits.maxRefusals, 1);
    // Every line about this socket names its player; lines about a match name the match too.
    const socketLog = log.child({ playerId: player.id, socketId: socket.id });

    const refuse = (ack: Acknowledge | undefined, code: ErrorBody['code'], message: string) => {
      ack?.({ ok: false, code, message });
      if (code === ErrorCode.RateLimited) services.metrics?.rateLimited.inc({ edge: 'socket' });
      if (!strikes.take()) {
        socketLog.warn({ address: addressOf(socket.request) }, 'socket disconnected for flooding');
        socket.disconnect(true);
      }
    };
    // Runs before any handler, for known and unknown events alike. An event
    // without an acknowledgement is never answered, but it still costs a token.
    socket.use((packet, next) => {
      try {
        const last = packet.at(-1);
        const ack = typeof last === 'function' ? (last as Acknowledge) : undefined;
        if (!rates.take(player.id)) return refuse(ack, ErrorCode.RateLimited, 'Too many messages; slow down');
        if (!ack) return refuse(undefined, ErrorCode.BadRequest, 'An event without an acknowledgement is dropped');
        const refusal = refusalOf(packet);
        if (refusal) return refuse(ack, refusal.code, refusal.message);
        const event = packet[0];
        if (typeof event !== 'string' || !Object.hasOwn(clientEvents, event)) {
          return refuse(ack, ErrorCode.BadRequest, `Unknown event "${String(event).slice(0, 64)}"`);
        }
        next();
      } catch (error: unknown) {
        socketLog.error({ err: error }, 'socket middleware failed');
        socket.disconnect(true);
      }
    });

    const on = <E extends ClientEventName>(event: E, run: (payload: ClientPayload<E>) => Promise<Ack<E>>) => {
      (socket.on as (event: string, listener: (...args: unknown[]) => void) => void)(event, (...args: unknown[]) => {
        const ack = args.at(-1) as (answer: Ack<E>) => void;
        const payload = args.length === 2 ? args[0] : undefined;
        const matchId = typeof payload === 'object' && payload !== null ? (payload as { matchId?: unknown }).matchId : undefined;
        const eventLog = typeof matchId === 'string' ? socketLog.child({ matchId: matchId.slice(0, 64) }) : socketLog;
        Promise.resolve()
          .then(() => run(parseInput(clientEvents[event], payload) as ClientPayload<E>))
          .then(ack, (error: unknown) => {
            const refusal = asRefusal(error);
            if (refusal?.code === ErrorCode.Unavailable) {
              services.metrics?.databaseUnavailable.inc({ edge: 'socket' });
              eventLog.warn({ err: error, event }, 'database unreachable');
            }
            if (refusal) return ack(refusal.toBody());
            eventLog.error({ err: error, event }, 'socket event failed');
            ack(internal());
          })
          .catch((error: unknown) => {
            eventLog.error({ err: error, event }, 'socket acknowledgement failed');
            socket.disconnect(true);
          });
      });
    };

    // Messages for this player wherever they are (queue pairings), from any process.
    void socket.join([playerChannel(player.id), sessionChannel(socket.data.sessionId)]);
    // Subscribe before reading, so nothing committed in between is missed
    // (a client drops events it already has by their version).
    on('room:join', async ({ code }) => {
      await socket.join(roomChannel(code));
      const joined = await services.matches.join(code, player).catch(async (error: unknown) => {
        await socket.leave(roomChannel(code));
        throw error;
      });
      services.presence.refresh(code);
      return { ok: true, ...joined };
    });
    on('opener:choose', async (payload) => ({ ok: true, version: await services.matches.chooseHand(player, payload) }));
    on('move', async (payload) => {
      // The clock stops when the move arrives, not when its turn in the match's queue comes.
      const receivedAt = new Date();
      const timer = services.metrics?.moveAck.startTimer();
      try {
        const version = await services.matches.move(player, payload, receivedAt);
        timer?.({ result: 'ok' });
        socketLog.debug({ matchId: payload.matchId, version }, 'move applied');
        return { ok: true, version };
      } catch (error) {
        timer?.({ result: asRefusal(error)?.code ?? ErrorCode.Internal });
        throw error;
      }
    });
    on('room:leave', async ({ code }) => {
      // Leaving a room one is not in changes nothing, so it costs nothing.
      if (!socket.rooms.has(roomChannel(code))) return { ok: true };
      await socket.leave(roomChannel(code));
      services.presence.refresh(code);
      return { ok: true };
    });
    on('sync', async ({ matchId, version }) => {
      const code = await services.matches.roomCodeOf(matchId);
      if (!socket.rooms.has(roomChannel(code))) {
        await socket.join(roomChannel(code));
        services.presence.refresh(code);
      }
      return { ok: true, ...(await services.matches.sync(matchId, version)) };
    });
    on('resign', async ({ matchId }) => ({ ok: true, version: await services.matches.resign(player, matchId) }));
    on('abort', async ({ matchId }) => ({ ok: true, version: await services.matches.abort(player, matchId) }));
    on('claim', async ({ matchId }) => {
      // Judge on who is connected now, not on what was last recorded.
      await services.presence.refreshNow(await services.matches.roomCodeOf(matchId));
      return { ok: true, version: await services.matches.claim(player, matchId, services.presence.claimableAt) };
    });
    on('rematch', async ({ matchId }) => ({ ok: true, version: await services.matches.rematch(player, matchId) }));
    on('queue:join', async ({ pool, rated }) => {
      await services.matchmaker.join(player, socket.id, pool, rated);
      return { ok: true };
    });
    on('queue:leave', async () => {
      await services.matchmaker.leave(player.id);
      return { ok: true };
    });

    // The rooms a socket was in are gone by the time 'disconnect' fires.
    let rooms: string[] = [];
    socket.on('disconnecting', () => {
      rooms = [...socket.rooms].filter((room) => room.startsWith('room:')).map((room) => room.slice('room:'.length));
    });
    socket.on('disconnect', () => {
      for (const code of rooms) services.presence.refresh(code);
      services.matchmaker.disconnected(socket.id).catch((error: unknown) => socketLog.error({ err: error }, 'leaving the queue failed'));
    });
  });
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
