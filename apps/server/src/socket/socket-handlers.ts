import type { FastifyBaseLogger } from 'fastify';
import {
  clientEvents,
  ErrorCode,
  limits,
  type Ack,
  type ClientEventName,
  type ClientPayload,
  type ErrorBody,
} from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { MatchService } from '../matches/match-service.js';
import type { Matchmaker } from '../matchmaking/matchmaker.js';
import type { PresenceService } from '../matches/presence-service.js';
import type { PlayerService } from '../players/player-service.js';
import { parseInput } from '../http/validate.js';
import { playerChannel, roomChannel, type GameServer, type GameSocket } from './game-server.js';
import { TokenBucket } from './token-bucket.js';

export interface SocketLimits {
  rateBurst: number;
  ratePerSecond: number;
  maxEventBytes: number;
}

/**
 * The socket edge: authenticate at the handshake, then for every event check
 * rate and size, parse the payload, delegate to the match service and
 * acknowledge. Handlers hold no game logic.
 */
export function attachSocketHandlers(
  io: GameServer,
  services: { players: PlayerService; matches: MatchService; presence: PresenceService; matchmaker: Matchmaker },
  log: FastifyBaseLogger,
  socketLimits: SocketLimits = limits,
): void {
  io.use((socket, next) => {
    services.players.authenticate((socket.handshake.auth as { token?: unknown } | undefined)?.token).then(
      (player) => {
        socket.data.player = player;
        next();
      },
      (error: unknown) => {
        const body = error instanceof ServiceError ? error.toBody() : internal();
        next(Object.assign(new Error(body.message), { data: body }));
      },
    );
  });

  io.on('connection', (socket: GameSocket) => {
    const bucket = new TokenBucket(socketLimits.rateBurst, socketLimits.ratePerSecond);

    // Runs before any handler, for known and unknown events alike.
    socket.use((packet, next) => {
      const ack = packet.at(-1);
      if (typeof ack !== 'function') {
        log.debug({ event: packet[0] }, 'event without acknowledgement dropped');
        return;
      }
      const reject = (code: ErrorBody['code'], message: string) => (ack as (body: ErrorBody) => void)({ ok: false, code, message });
      if (!bucket.take()) return reject(ErrorCode.RateLimited, 'Too many messages; slow down');
      const size = Buffer.byteLength(JSON.stringify(packet.slice(1, -1)) ?? '');
      if (size > socketLimits.maxEventBytes) {
        return reject(ErrorCode.PayloadTooLarge, `Payload of ${size} bytes is over the limit of ${socketLimits.maxEventBytes}`);
      }
      if (typeof packet[0] !== 'string' || !Object.hasOwn(clientEvents, packet[0])) return reject(ErrorCode.BadRequest, `Unknown event "${String(packet[0])}"`);
      next();
    });

    const on = <E extends ClientEventName>(event: E, run: (payload: ClientPayload<E>) => Promise<Ack<E>>) => {
      (socket.on as (event: string, listener: (...args: unknown[]) => void) => void)(event, (...args: unknown[]) => {
        const ack = args.at(-1) as (answer: Ack<E>) => void;
        Promise.resolve()
          .then(() => run(parseInput(clientEvents[event], args.length === 2 ? args[0] : undefined) as ClientPayload<E>))
          .then(ack, (error: unknown) => {
            if (error instanceof ServiceError) return ack(error.toBody());
            log.error({ err: error, event }, 'socket event failed');
            ack(internal());
          });
      });
    };

    const player = socket.data.player;
    // Messages for this player wherever they are (queue pairings), from any process.
    void socket.join(playerChannel(player.id));
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
      return { ok: true, version: await services.matches.move(player, payload, receivedAt) };
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
    on('queue:join', async ({ pool }) => {
      await services.matchmaker.join(player, socket.id, pool);
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
      services.matchmaker.disconnected(socket.id).catch((error: unknown) => log.error({ err: error }, 'leaving the queue failed'));
    });
  });
}

function internal(): ErrorBody {
  return { ok: false, code: ErrorCode.Internal, message: 'Internal error' };
}
