import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const paths = {
  repoRoot,
  migrations: path.join(repoRoot, 'prisma/migrations'),
  schema: path.join(repoRoot, 'prisma/schema.prisma'),
  webBuild: path.join(repoRoot, 'apps/web/build'),
};

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  /** Before every key and channel name the server uses in Redis, so that deployments sharing one Redis keep apart. */
  REDIS_PREFIX: z
    .string()
    .max(64)
    .regex(/^[\w:.-]*$/, 'letters, digits and _ : . - only')
    .default(''),
  PGLITE_DATA_DIR: z.string().min(1).default(path.join(repoRoot, '.data/pglite')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How long the second player has to choose a hand once the first has; then the first wins the toss. */
  OPENER_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /** How long a seated player may be disconnected before the opponent can claim the win. */
  ABANDON_GRACE_MS: z.coerce.number().int().min(0).default(60_000),
  /** How often a process tells the others (through Redis) it is alive; one silent for three beats has its players counted absent. */
  PRESENCE_HEARTBEAT_MS: z.coerce.number().int().min(100).default(5_000),
  /** How long the first mover has for the first move before the match is aborted (no clock runs before it). */
  FIRST_MOVE_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /** The periodic cleanup: guests who never played are deleted after this many days, rooms whose match never started after this many hours. */
  GUEST_RETENTION_DAYS: z.coerce.number().min(0).default(30),
  IDLE_ROOM_HOURS: z.coerce.number().min(0).default(24),
  CLEANUP_INTERVAL_MS: z.coerce.number().int().min(1000).default(3_600_000),
  /** Rows deleted per transaction, so a huge backlog never holds locks for long. */
  CLEANUP_BATCH_SIZE: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** The public queue: rating gap accepted at once, its widening per second of waiting, how often pairs are made. */
  QUEUE_BASE_GAP: z.coerce.number().min(0).default(100),
  QUEUE_GAP_PER_SECOND: z.coerce.number().min(0).default(20),
  QUEUE_TICK_MS: z.coerce.number().int().min(50).default(1000),
  /** Arenas: how often the node holding the pairing lock pairs free players and sends standings; whether the server makes the scheduled arenas. */
  ARENA_TICK_MS: z.coerce.number().int().min(50).default(1000),
  ARENA_SCHEDULE: z.enum(['on', 'off']).default('on'),
  /** How long two arena players who just met wait for someone else before they are paired again; unset, ARENA_REPEAT_AFTER_MS of arena-pairing.ts. */
  ARENA_REPEAT_AFTER_MS: z.coerce.number().int().min(0).optional(),
  /**
   * Arena standings read (a page, a player's arenas, watching) and joins or
   * pauses, per minute, per player and per address. A page costs well under
   * a millisecond; an address's budget of reads is a few hundred people's.
   * A join costs the server several (its seat, its row, the pairing that
   * follows: about 7 ms and 2 ms of the database's in bench:arena), so an
   * address's joins are a class's at once, a school's over a few minutes.
   */
  ARENA_READS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  ARENA_READS_PER_MINUTE_PER_ADDRESS: z.coerce.number().int().min(1).default(1200),
  ARENA_ENTRIES_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  ARENA_ENTRIES_PER_MINUTE_PER_ADDRESS: z.coerce.number().int().min(1).default(100),
  /** Open sockets one player, and one remote address, may hold on this process; more are refused at the handshake. */
  MAX_SOCKETS_PER_PLAYER: z.coerce.number().int().min(1).default(10),
  // A school or a mobile carrier puts a few hundred people, a tab or two each, behind one address.
  MAX_SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).default(1000),
  /**
   * Quick phrases a room carries per window, beyond each person's own rate
   * (on one process): each player's (at their own rate, at most 6 in 10 s),
   * and all its spectators' together, however many they are.
   */
  ROOM_PHRASES_WINDOW_MS: z.coerce.number().int().min(100).default(10_000),
  ROOM_PHRASES_PER_PLAYER: z.coerce.number().int().min(1).default(6),
  ROOM_PHRASES_SPECTATORS: z.coerce.number().int().min(1).default(6),
  /**
   * Prometheus metrics (GET /metrics) on a port of their own, unset to serve none;
   * keep this port away from the public proxy. METRICS_HOST defaults to HOST.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).optional(),
  WEB_BUILD_DIR: z.string().min(1).default(paths.webBuild),
  /**
   * Which peers may name the client's address in X-Forwarded-For: unset or
   * `false` trusts none (the socket's address is the client's), `true` every
   * one (only when nothing but the proxy can reach the server), otherwise a
   * comma-separated list of addresses, CIDR ranges or `loopback`/`uniquelocal`.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .min(1)
    .transform((value) => (value === 'true' ? true : value === 'false' ? false : value))
    .default(false),
  /** A request must arrive whole (headers and body) within this, its headers sooner; then the connection is cut (408). */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  /** How long an idle keep-alive connection stays open; longer than the idle timeout of a proxy in front. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1).default(72_000),
  /** Moves one process holds at once (waiting their turn or committing); past it a move is refused as BUSY, to be sent again. */
  MAX_MOVES_IN_FLIGHT: z.coerce.number().int().min(1).default(500),
  /** With several processes: how often each checks that its sockets have every committed event of the matches they watch. */
  MATCH_FEED_CHECK_MS: z.coerce.number().int().min(50).default(1000),
  /** On SIGTERM, how long the node answers not ready before it lets its sockets go: longer than the proxy needs to mark it down. */
  DRAIN_NOTICE_MS: z.coerce.number().int().min(0).default(3000),
  /** On SIGTERM, once the sockets are told to go, how long they may take to send what they hold (the last acknowledgements) before the process closes. */
  DRAIN_FLUSH_MS: z.coerce.number().int().min(0).default(2000),
  /** Per address: guest tokens it may be given. A guest writes nothing until they sit down, so this only stops a flood. */
  RATE_LIMIT_GUESTS_PER_HOUR: z.coerce.number().int().min(1).default(3000),
  /** Per address: guests who get a row, at their first seat, queue entry, room, game against the computer, analysis or rename. */
  RATE_LIMIT_NEW_PLAYERS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(600),
  /** Per address (a school, a café, a mobile carrier: a few hundred people), and per person: seats taken and queue entries. */
  RATE_LIMIT_SEATS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_SEATS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Per address: rooms made, and games against the computer and analyses (each person's own are RATE_LIMIT_ROOMS_PER_MINUTE and RATE_LIMIT_ANALYSES_PER_MINUTE). */
  RATE_LIMIT_ROOMS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  RATE_LIMIT_ANALYSES_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /** The key that signs guests' tokens and known-device cookies, the same on every process; unset, one is made in the database once and shared from there. */
  GUEST_TOKEN_SECRET: z.string().min(32).optional(),
  /** Per player: rooms made and renames. */
  RATE_LIMIT_ROOMS_PER_MINUTE: z.coerce.number().int().min(1).default(6),
  RATE_LIMIT_RENAMES_PER_MINUTE: z.coerce.number().int().min(1).default(5),
  /** Per address: accounts kept (sign-ups) and sign-in attempts. */
  RATE_LIMIT_SIGNUPS_PER_HOUR: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_LOGINS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /**
   * Failed sign-ins, from one address to any usernames and to one username
   * from any addresses, before each further failure makes that address or
   * username wait: first RATE_LIMIT_LOGINS_FIRST_DELAY_MS, doubling with each
   * failure up to RATE_LIMIT_LOGINS_MAX_DELAY_MS. Failures are forgotten
   * RATE_LIMIT_LOGINS_FAILURES_KEPT_HOURS after the last one.
   */
  RATE_LIMIT_LOGINS_FREE_FAILURES_PER_ADDRESS: z.coerce.number().int().min(0).default(10),
  RATE_LIMIT_LOGINS_FREE_FAILURES_PER_USERNAME: z.coerce.number().int().min(0).default(5),
  RATE_LIMIT_LOGINS_FIRST_DELAY_MS: z.coerce.number().int().min(1).default(1000),
  RATE_LIMIT_LOGINS_MAX_DELAY_MS: z.coerce.number().int().min(1).default(900_000),
  RATE_LIMIT_LOGINS_FAILURES_KEPT_HOURS: z.coerce.number().positive().default(24),
  /**
   * A browser that signed in to an account before is known to it for this
   * long after its last sign-in there, and fails
   * RATE_LIMIT_LOGINS_FREE_FAILURES_PER_DEVICE times free before it waits,
   * alone, whatever waits strangers' guesses put on the username and address.
   */
  SIGN_IN_DEVICE_DAYS: z.coerce.number().positive().default(180),
  RATE_LIMIT_LOGINS_FREE_FAILURES_PER_DEVICE: z.coerce.number().int().min(0).default(5),
  /** A session unused this long expires; every use moves its expiry forward. */
  SESSION_TTL_DAYS: z.coerce.number().positive().default(30),
  /**
   * The session cookie's Secure flag: `auto` sets it except for requests to
   * localhost (development and tests over plain HTTP), `true` always, `false` never.
   */
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  /** Per player, or per address without a valid token: every other API call. */
  RATE_LIMIT_READS_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /** Per player: games against the computer started, and analyses asked for. */
  RATE_LIMIT_ANALYSES_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /**
   * Worker threads searching the computer's moves: one fewer than the cores
   * (at least one), so the event loop keeps a core of its own; analyses have
   * one more of their own. Not more: the bot-attack bench showed four
   * idle-class threads on the server's core doubling people's ack p99 beside
   * an attack, where one left it within 1.3×. Many games' searches then wait
   * their turn (fairly, by address) and each ends by its move's deadline.
   */
  ENGINE_THREADS: z.coerce.number().int().min(1).max(64).default(Math.max(1, availableParallelism() - 1)),
  /** The engine threads' nice value on Linux: 19, the lowest priority, lets the event loop (people's moves) go first. */
  ENGINE_NICE: z.coerce.number().int().min(0).max(19).default(19),
  /**
   * A ceiling on the computer's thought about one move (a clock, or a BOT_MOVE_DELAY_MS of 200 ms or more, may give it less: see
   * bots/think-budget.ts): the levels are budgeted in nodes, and level 8's take about 100 ms on a quiet core.
   */
  BOT_THINK_MS: z.coerce.number().int().min(1).max(10_000).default(1000),
  /** The computer's move lands no sooner than this after its turn began. */
  BOT_MOVE_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(600),
  /**
   * Games against the computer running at once, per player and per address.
   * A person plays one or two; an address is given about two hundred
   * people's worth, so a school or a café behind one address still plays.
   */
  BOT_GAMES_PER_PLAYER: z.coerce.number().int().min(1).default(2),
  BOT_GAMES_PER_ADDRESS: z.coerce.number().int().min(1).default(200),
  /** Challenges (open and direct) out at once per player and per address; making them is budgeted as rooms are (RATE_LIMIT_ROOMS_*). */
  CHALLENGES_PER_PLAYER: z.coerce.number().int().min(1).default(3),
  CHALLENGES_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  /** Open challenges out at once from one address: so many rows of the lobby at most, whoever shares it. */
  OPEN_CHALLENGES_PER_ADDRESS: z.coerce.number().int().min(1).default(3),
  /** Direct challenges waiting for one person at once, in all and from one address (one sender has one waiting for them at most). */
  CHALLENGES_TO_PLAYER: z.coerce.number().int().min(1).default(10),
  CHALLENGES_TO_PLAYER_PER_ADDRESS: z.coerce.number().int().min(1).default(2),
  /** How long a direct challenge waits for its answer. */
  CHALLENGE_TTL_MS: z.coerce.number().int().min(1000).default(60_000),
  /** How long a challenge outlives the last connection of its creator (or target); how often each process renews and sweeps them. */
  CHALLENGE_GRACE_MS: z.coerce.number().int().min(500).default(10_000),
  CHALLENGE_TICK_MS: z.coerce.number().int().min(100).default(2_000),
  /** People one player may block. */
  BLOCKS_PER_PLAYER: z.coerce.number().int().min(1).default(500),
  /** Players one account may follow. */
  FOLLOWS_PER_PLAYER: z.coerce.number().int().min(1).default(400),
  /**
   * Database statements the computer's players run at once in a process (its
   * reads and its moves): a few of the pools' connections, so that however
   * many games it plays, people's moves and the periodic tasks find theirs.
   */
  BOT_DATABASE_SLOTS: z.coerce.number().int().min(1).max(8).default(2),
  /**
   * A person's moves in games against the computer, per address and second,
   * taken as soon as they come; beyond, they wait behind people's moves
   * (src/bots/move-priority.ts). A few hundred people at a person's pace.
   */
  BOT_MOVES_PER_ADDRESS_PER_SECOND: z.coerce.number().int().min(1).default(20),
  /**
   * The most such moves taken per address and second at all: beyond, each
   * waits for its turn at this rate. Two hundred people (BOT_GAMES_PER_ADDRESS)
   * moving every four seconds; it bounds what one address's games against
   * the computer cost the server however fast a script plays them.
   */
  BOT_MOVES_PER_ADDRESS_MAX_PER_SECOND: z.coerce.number().int().min(1).default(50),
  /** Work of games against the computer waiting at once in each of its lanes; beyond, a person's move is refused as BUSY. */
  BOT_QUEUE_BOUND: z.coerce.number().int().min(1).default(1000),
  /** The longest that work of games against the computer waits for people's moves before it goes anyway. */
  BOT_YIELD_MAX_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(50),
  /** How often each process looks for live games against the computer that wait on it (after a restart, say). */
  BOT_SWEEP_MS: z.coerce.number().int().min(100).default(5000),
  /**
   * The longest a person's turn in an untimed game against the computer may last: past it, the computer claims the win as
   * if they had gone (a clock bounds a timed game, FIRST_MOVE_TIMEOUT_MS a first move, ABANDON_GRACE_MS a person who left).
   */
  BOT_GAME_IDLE_MS: z.coerce.number().int().min(1000).default(600_000),
  /** Search depth of a match analysis, per ply. */
  ANALYSIS_DEPTH: z.coerce.number().int().min(1).max(20).default(8),
  /** Analyses waiting or running at once, in all; per player; per address. More are refused (ANALYSIS_BUSY) until some finish. */
  ANALYSIS_QUEUE_MAX: z.coerce.number().int().min(1).default(20),
  ANALYSIS_PER_PLAYER: z.coerce.number().int().min(1).default(2),
  /** Under a third of the queue, so that one address (ten guests, say) cannot fill it for everyone. */
  ANALYSIS_PER_ADDRESS: z.coerce.number().int().min(1).default(6),
  /**
   * Puzzles: a site that has fewer than PUZZLES_AT_START makes that many from
   * self-play in the background when it starts (0: never; unset: 500, or 0
   * under NODE_ENV=test). PUZZLE_MINING looks for puzzles in finished games'
   * analyses, one at a time, at the engine's lowest priority.
   */
  PUZZLES_AT_START: z.coerce.number().int().min(0).optional(),
  PUZZLE_MINING: z.enum(['on', 'off']).optional(),
  PUZZLE_MINING_POLL_MS: z.coerce.number().int().min(100).default(30_000),
  /**
   * Downloads of everything one holds (GET /api/account/export), per hour,
   * per person and per address: each reads every game they ever played. A
   * process streams this many at once at most; more are refused as BUSY.
   */
  RATE_LIMIT_EXPORTS_PER_HOUR: z.coerce.number().int().min(1).default(3),
  RATE_LIMIT_EXPORTS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(30),
  EXPORTS_AT_ONCE: z.coerce.number().int().min(1).default(4),
  /** A download whose reader takes nothing more for this long is cut, and its place given back. */
  EXPORT_STALL_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * Tries at closing an account (POST /api/account/close), per hour, per
   * account and per address: each one checks a password, which costs as a
   * sign-in does.
   */
  RATE_LIMIT_ACCOUNT_CLOSES_PER_HOUR: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_ACCOUNT_CLOSES_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(20),
  /** Puzzle moves sent per minute, per person (player or address), and per address. */
  RATE_LIMIT_PUZZLE_MOVES_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_PUZZLE_MOVES_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
});

const configSchema = envSchema.refine((config) => config.HTTP_HEADERS_TIMEOUT_MS <= config.HTTP_REQUEST_TIMEOUT_MS, {
  path: ['HTTP_HEADERS_TIMEOUT_MS'],
  message: 'must not be longer than HTTP_REQUEST_TIMEOUT_MS',
}).refine((config) => config.CHALLENGE_GRACE_MS > 2 * config.CHALLENGE_TICK_MS, {
  // A connected person's challenge is renewed every tick; a grace shorter than two would end it between renewals.
  path: ['CHALLENGE_GRACE_MS'],
  message: 'must be more than twice CHALLENGE_TICK_MS',
});

export type Config = z.infer<typeof envSchema>;

/** Reads the environment once at start-up; a bad value stops the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Bad configuration: ${problems}`);
  }
  return parsed.data;
}
