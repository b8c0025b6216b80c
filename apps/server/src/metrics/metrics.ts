import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, Summary } from 'prom-client';

/** What the database pool reports: connections open, idle, and requests waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface MetricSources {
  connectedSockets(): number;
  /** Matches in the opener or playing, across the whole site (read from the database at scrape time). */
  liveMatches(): Promise<number>;
  /** Undefined where there is no pool (PGlite is one connection in-process). */
  pool?: () => PoolStats;
  /** Whether the database answers a trivial query now. */
  databaseAnswers(): Promise<boolean>;
  /** Undefined without Redis. */
  redisConnected?: () => boolean;
}

/** How long a scrape waits on the database: an unreachable one (a partition) must not hold Prometheus past its timeout. */
const DATABASE_PROBE_MS = 3000;

const withinProbeTime = <T>(promise: Promise<T>): Promise<T | undefined> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), DATABASE_PROBE_MS);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      () => (clearTimeout(timer), resolve(undefined)),
    );
  });

/**
 * This process's Prometheus metrics, in a registry of its own (tests run
 * several apps in one process). Gauges read their source at scrape time, so
 * nothing is counted on the hot path but the counters and the histogram.
 * Node's default metrics come along, event-loop delay among them.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly moveAck: Histogram<'result'>;
  readonly queueWait: Histogram<'pool'>;
  readonly eventsPublished: Counter;
  readonly hotStatements: Counter<'statement'>;
  readonly rateLimited: Counter<'edge'>;
  readonly databaseUnavailable: Counter<'edge'>;
  readonly requestsAborted: Counter;
  readonly engineMove: Summary<'level'>;
  readonly engineNodes: Summary<'level'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'oanquan_' });
    this.moveAck = new Histogram({
      name: 'oanquan_move_ack_seconds',
      help: 'From a move reaching the socket handler to its acknowledgement, by result (ok or the refusal code)',
      labelNames: ['result'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.queueWait = new Histogram({
      name: 'oanquan_queue_wait_seconds',
      help: 'How long paired players waited in the public queue, by pool, observed by the process that paired them',
      labelNames: ['pool'],
      buckets: [1, 2, 5, 10, 20, 30, 60, 120, 300],
      registers,
    });
    // Quantiles rather than buckets: the figure that matters is how close the
    // slowest searches come to the computer's time limit, over recent minutes.
    this.engineMove = new Summary({
      name: 'oanquan_engine_move_seconds',
      help: "The computer's searches by level, from asking the engine pool to its answer, waiting included; quantiles over the last 10 minutes",
      labelNames: ['level'],
      percentiles: [0.5, 0.9, 0.99, 1],
      maxAgeSeconds: 600,
      ageBuckets: 5,
      registers,
    });
    // A level is budgeted in nodes with time as a ceiling: fewer nodes than
    // its budget means the ceiling came first, and the computer played weaker.
    this.engineNodes = new Summary({
      name: 'oanquan_engine_move_nodes',
      help: "The nodes the computer's searches looked at, by level; quantiles over the last 10 minutes",
      labelNames: ['level'],
      percentiles: [0, 0.1, 0.5, 1],
      maxAgeSeconds: 600,
      ageBuckets: 5,
      registers,
    });
    this.eventsPublished = new Counter({ name: 'oanquan_events_published_total', help: 'Match events broadcast by this process', registers });
    this.hotStatements = new Counter({
      name: 'oanquan_hot_statements_total',
      help: "Statements of the hot path (moves, hands, catching up with another process's moves) sent to the database, by statement",
      labelNames: ['statement'],
      registers,
    });
    this.rateLimited = new Counter({ name: 'oanquan_rate_limited_total', help: 'Requests refused for going over a rate limit, by edge (http, socket)', labelNames: ['edge'], registers });
    this.databaseUnavailable = new Counter({
      name: 'oanquan_database_unavailable_total',
      help: 'Requests answered UNAVAILABLE because the database could not be reached, by edge (http, socket)',
      labelNames: ['edge'],
      registers,
    });
    // Apart from the database's count: a client that hangs up mid-body says nothing of the database.
    this.requestsAborted = new Counter({ name: 'oanquan_http_requests_aborted_total', help: 'HTTP requests whose client hung up before they were answered, mid-body included', registers });
    new Gauge({
      name: 'oanquan_connected_sockets',
      help: 'Socket.IO connections open on this process',
      registers,
      collect() {
        this.set(sources.connectedSockets());
      },
    });
    new Gauge({
      name: 'oanquan_live_matches',
      help: 'Matches in the opener or playing, site-wide; absent while the database is unreachable',
      registers,
      async collect() {
        this.reset();
        // A scrape during an outage still answers, without this one figure.
        const count = await withinProbeTime(sources.liveMatches());
        if (count !== undefined) this.set(count);
      },
    });
    new Gauge({
      name: 'oanquan_database_up',
      help: 'Whether the database answered a trivial query at scrape time (1) or not within 3 s (0)',
      registers,
      async collect() {
        this.set((await withinProbeTime(sources.databaseAnswers())) === true ? 1 : 0);
      },
    });
    const pool = sources.pool;
    if (pool) {
      new Gauge({
        name: 'oanquan_db_pool_in_use',
        help: 'Database connections checked out of the pool',
        registers,
        collect() {
          const stats = pool();
          this.set(stats.total - stats.idle);
        },
      });
      new Gauge({
        name: 'oanquan_db_pool_waiting',
        help: 'Queries waiting for a database connection',
        registers,
        collect() {
          this.set(pool().waiting);
        },
      });
    }
    const redisConnected = sources.redisConnected;
    if (redisConnected) {
      new Gauge({
        name: 'oanquan_redis_connected',
        help: '1 while broadcasts reach the other processes through Redis',
        registers,
        collect() {
          this.set(redisConnected() ? 1 : 0);
        },
      });
    }
  }
}
