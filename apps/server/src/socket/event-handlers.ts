import { ErrorCode, packEnvelope, type Ack, type ClientEventName, type ClientPayload } from '@oanquan/protocol';
import { unwatchArena, watchArena } from '../arenas/arena-edge.js';
import type { ArenaLimits } from '../arenas/arena-limits.js';
import type { ArenaService } from '../arenas/arena-service.js';
import type { MovePriority } from '../bots/move-priority.js';
import type { MatchFeed } from '../cluster/match-feed.js';
import { asRefusal } from '../errors.js';
import type { MatchService } from '../matches/match-service.js';
import type { PresenceService } from '../presence/presence-service.js';
import type { Matchmaker } from '../matchmaking/matchmaker.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Cost, CostBudgets } from '../players/cost-budgets.js';
import { roomChannel, type GameSocket } from '../realtime/game-server.js';
import { challengeHandlers } from '../social/challenge-handlers.js';
import type { ChallengeService } from '../social/challenge-service.js';
import type { QuickPhrases } from './quick-phrases.js';

export interface EventServices {
  matches: MatchService;
  feed: Pick<MatchFeed, 'watching'>;
  presence: PresenceService;
  matchmaker: Matchmaker;
  costs: CostBudgets;
  phrases: QuickPhrases;
  challenges: ChallengeService;
  arenas: ArenaService;
  arenaLimits: ArenaLimits;
  metrics?: Metrics;
  /** People's games first, games against the computer beyond a rate after them (none: in arrival order). */
  movePriority?: Pick<MovePriority, 'move'>;
}

/** What one client event does, given the socket it came on and its parsed payload. */
export type EventHandlers = {
  [E in ClientEventName]: (socket: GameSocket, payload: ClientPayload<E>) => Promise<Ack<E>>;
};

/**
 * One table of handlers for every socket, rather than a set of listeners
 * made for each: an idle socket then costs no closures of its own.
 */
export function eventHandlers(services: EventServices): EventHandlers {
  // Watching is free; a seat or a queue entry is paid for, and a guest's row is made with the first.
  const pay = async (socket: GameSocket, cost: Cost) => {
    await services.costs.pay(cost, { player: socket.data.player, hasRow: socket.data.hasRow }, socket.data.address);
    socket.data.hasRow = true;
  };
  // The histogram's child for accepted moves, made once: labels are looked up as it is made, not at every move.
  const movesAcknowledged = services.metrics?.moveAck.labels({ result: 'ok' });
  return {
    // Subscribe before reading, so nothing committed in between is missed
    // (a client drops events it already has by their version).
    'room:join': async (socket, { code }) => {
      await socket.join(roomChannel(code));
      const joined = await services.matches.join(code, socket.data.player, () => pay(socket, 'seat')).catch(async (error: unknown) => {
        await socket.leave(roomChannel(code));
        throw error;
      });
      services.feed.watching(code, joined.snapshot.matchId, joined.snapshot.version);
      services.presence.refresh(code);
      return { ok: true, ...joined };
    },
    'opener:choose': async (socket, payload) => ({ ok: true, version: await services.matches.chooseHand(socket.data.player, payload) }),
    move: async (socket, payload) => {
      // The clock stops when the move arrives, not when its turn in the match's queue comes.
      const receivedAt = new Date();
      const started = performance.now();
      try {
        const move = () => services.matches.move(socket.data.player, payload, receivedAt);
        const version = await (services.movePriority ? services.movePriority.move(payload.matchId, socket.data.address, move) : move());
        movesAcknowledged?.observe((performance.now() - started) / 1000);
        return { ok: true, version };
      } catch (error) {
        services.metrics?.moveAck.observe({ result: asRefusal(error)?.code ?? ErrorCode.Internal }, (performance.now() - started) / 1000);
        throw error;
      }
    },
    'room:leave': async (socket, { code }) => {
      // Leaving a room one is not in changes nothing, so it costs nothing.
      if (!socket.rooms.has(roomChannel(code))) return { ok: true };
      await socket.leave(roomChannel(code));
      services.presence.refresh(code);
      return { ok: true };
    },
    sync: async (socket, { matchId, version }) => {
      const code = await services.matches.roomCodeOf(matchId);
      if (!socket.rooms.has(roomChannel(code))) {
        await socket.join(roomChannel(code));
        services.presence.refresh(code);
      }
      const missed = await services.matches.sync(matchId, version);
      services.feed.watching(code, matchId, 'snapshot' in missed ? missed.snapshot.version : (missed.events.at(-1)?.version ?? version));
      return 'events' in missed ? { ok: true, events: missed.events.map(packEnvelope) } : { ok: true, snapshot: missed.snapshot };
    },
    resign: async (socket, { matchId }) => ({ ok: true, version: await services.matches.resign(socket.data.player, matchId) }),
    abort: async (socket, { matchId }) => ({ ok: true, version: await services.matches.abort(socket.data.player, matchId) }),
    claim: async (socket, { matchId }) => {
      // Judge on who is connected now, not on what was last recorded.
      await services.presence.refreshNow(await services.matches.roomCodeOf(matchId));
      return { ok: true, version: await services.matches.claim(socket.data.player, matchId, services.presence.claimableAt) };
    },
    rematch: async (socket, { matchId }) => ({ ok: true, version: await services.matches.rematch(socket.data.player, matchId) }),
    'queue:join': async (socket, { pool, rated }) => {
      await pay(socket, 'seat');
      await services.matchmaker.join(socket.data.player, socket.id, pool, rated);
      return { ok: true };
    },
    'queue:leave': async (socket) => {
      await services.matchmaker.leave(socket.data.player.id);
      return { ok: true };
    },
    'phrase:say': async (socket, payload) => {
      await services.phrases.say(socket, payload);
      return { ok: true };
    },
    ...challengeHandlers(services.challenges, pay),
    'arena:watch': (socket, { code, page }) => watchArena(services, socket, code, page),
    'arena:unwatch': (socket, { code }) => unwatchArena(socket, code),
  };
}
