import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Counters } from './counters.js';

/** What the plugin hands a route's store: its merged options, with the route they are for. */
type ScopedOptions = { routeInfo?: { method?: string | string[]; url?: string } };

/**
 * @fastify/rate-limit's budgets kept in our counters (shared by every process
 * when Redis is configured), each route's under keys of its own, in fixed
 * windows as the plugin's own store keeps them.
 */
export function counterStore(counters: Counters): FastifyRateLimitStoreCtor {
  return class CounterStore implements FastifyRateLimitStore {
    private readonly scope: string;

    constructor(options: object) {
      const route = (options as ScopedOptions).routeInfo;
      this.scope = route?.url ? `${[route.method].flat().join(',')} ${route.url}` : 'api';
    }

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      counters.count(`rate:${this.scope}:${key}`, timeWindow).then(
        ({ value, ttlMs }) => callback(null, { current: value, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      return new CounterStore(routeOptions);
    }
  };
}
