import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { ErrorCode } from '@oanquan/protocol';
import type { Config } from '../config.js';
import { ServiceError } from '../errors.js';
import type { PlayerService } from '../players/player-service.js';
import type { Counters } from '../limits/counters.js';
import { counterStore } from '../limits/rate-limit-store.js';
import { SignInThrottle } from '../limits/sign-in-throttle.js';
import { requestAddress } from './client-address.js';
import { sessionToken } from './session-cookie.js';
import { requirePlayer } from './session-routes.js';

export type RateLimitSettings = Pick<
  Config,
  | 'RATE_LIMIT_GUESTS_PER_HOUR'
  | 'RATE_LIMIT_ROOMS_PER_MINUTE'
  | 'RATE_LIMIT_RENAMES_PER_MINUTE'
  | 'RATE_LIMIT_READS_PER_MINUTE'
  | 'RATE_LIMIT_SIGNUPS_PER_HOUR'
  | 'RATE_LIMIT_LOGINS_PER_MINUTE'
  | 'RATE_LIMIT_LOGINS_FREE_FAILURES_PER_ADDRESS'
  | 'RATE_LIMIT_LOGINS_FREE_FAILURES_PER_USERNAME'
  | 'RATE_LIMIT_LOGINS_FREE_FAILURES_PER_DEVICE'
  | 'RATE_LIMIT_LOGINS_FIRST_DELAY_MS'
  | 'RATE_LIMIT_LOGINS_MAX_DELAY_MS'
  | 'RATE_LIMIT_LOGINS_FAILURES_KEPT_HOURS'
  | 'RATE_LIMIT_ANALYSES_PER_MINUTE'
  | 'RATE_LIMIT_PUZZLE_MOVES_PER_MINUTE'
  | 'ARENA_READS_PER_MINUTE_PER_ADDRESS'
>;

export interface RateLimiters {
  /** Slows password guessing per address and per username; only failed sign-ins count. */
  signIns: SignInThrottle;
}

function byAddress(request: FastifyRequest): string {
  return `address:${requestAddress(request)}`;
}

/**
 * Limits belong to a person, not to a connection: the player a valid token
 * names, else the address. A forged token counts against its sender's
 * address, so inventing tokens buys no fresh allowance.
 */
function byPerson(players: PlayerService) {
  return async (request: FastifyRequest): Promise<string> => {
    if (!sessionToken(request)) return byAddress(request);
    try {
      return `player:${(await requirePlayer(players, request)).id}`;
    } catch (error) {
      if (error instanceof ServiceError) return byAddress(request);
      throw error;
    }
  };
}

/**
 * Every API route is limited per person: the writes strangers abuse each
 * have a budget of their own, everything else shares a generous one. Making
 * a guest is limited by address alone, or each new guest's token would open
 * a fresh allowance for the next; so are keeping an account and signing in
 * (whose failures are also slowed per username, see SignInThrottle).
 */
export async function rateLimits(
  api: FastifyInstance,
  { players, settings, counters, onRefused }: { players: PlayerService; settings: RateLimitSettings; counters: Counters; onRefused?: () => void },
): Promise<RateLimiters> {
  const person = byPerson(players);
  const perRoute: Record<string, RateLimitOptions | false> = {
    'POST /api/session': { max: settings.RATE_LIMIT_GUESTS_PER_HOUR, timeWindow: '1 hour', keyGenerator: byAddress },
    'POST /api/rooms': { max: settings.RATE_LIMIT_ROOMS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: person },
    // Both set the engine to work, for minutes in an analysis's case.
    'POST /api/bot-games': { max: settings.RATE_LIMIT_ANALYSES_PER_MINUTE, timeWindow: '1 minute', keyGenerator: person },
    'POST /api/matches/:id/analysis': { max: settings.RATE_LIMIT_ANALYSES_PER_MINUTE, timeWindow: '1 minute', keyGenerator: person },
    'POST /api/puzzles/:id/attempts': { max: settings.RATE_LIMIT_PUZZLE_MOVES_PER_MINUTE, timeWindow: '1 minute', keyGenerator: person },
    // Arena standings are read by crowds of free guests: counted by address before anyone is identified, so a flood's
    // refusals cost no session lookup (each reader's own budget is ArenaLimits', after this).
    'GET /api/arenas/:code': { max: settings.ARENA_READS_PER_MINUTE_PER_ADDRESS, timeWindow: '1 minute', keyGenerator: byAddress },
    'GET /api/players/:id/arenas': { max: settings.ARENA_READS_PER_MINUTE_PER_ADDRESS, timeWindow: '1 minute', keyGenerator: byAddress },
    'PATCH /api/me': { max: settings.RATE_LIMIT_RENAMES_PER_MINUTE, timeWindow: '1 minute', keyGenerator: person },
    'POST /api/account': { max: settings.RATE_LIMIT_SIGNUPS_PER_HOUR, timeWindow: '1 hour', keyGenerator: byAddress },
    'POST /api/session/login': { max: settings.RATE_LIMIT_LOGINS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: byAddress },
    // Guessing the current password with a stolen session is a sign-in attempt too.
    'POST /api/account/password': { max: settings.RATE_LIMIT_LOGINS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: person },
    // So is closing: per minute here, as a password change; per hour, and per address, in its cost budget.
    'POST /api/account/close': { max: settings.RATE_LIMIT_LOGINS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: person },
    // Load balancers probe it from one address; a refused probe would take the node out of service.
    'GET /api/health': false,
    'GET /api/health/live': false,
  };
  api.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const limit = perRoute[`${method} ${route.url}`];
      if (limit !== undefined) route.config = { ...route.config, rateLimit: limit };
    }
  });
  await api.register(rateLimit, {
    global: true,
    max: settings.RATE_LIMIT_READS_PER_MINUTE,
    timeWindow: '1 minute',
    keyGenerator: person,
    store: counterStore(counters),
    onExceeded: () => onRefused?.(),
    errorResponseBuilder: (_request, context) =>
      new ServiceError(ErrorCode.RateLimited, `Too many requests; try again in ${context.after}`, context.statusCode),
  });
  return {
    signIns: new SignInThrottle(counters, {
      freeFailuresPerAddress: settings.RATE_LIMIT_LOGINS_FREE_FAILURES_PER_ADDRESS,
      freeFailuresPerUsername: settings.RATE_LIMIT_LOGINS_FREE_FAILURES_PER_USERNAME,
      freeFailuresPerDevice: settings.RATE_LIMIT_LOGINS_FREE_FAILURES_PER_DEVICE,
      firstDelayMs: settings.RATE_LIMIT_LOGINS_FIRST_DELAY_MS,
      maxDelayMs: settings.RATE_LIMIT_LOGINS_MAX_DELAY_MS,
      failuresKeptMs: settings.RATE_LIMIT_LOGINS_FAILURES_KEPT_HOURS * 3_600_000,
    }),
  };
}
