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
  PGLITE_DATA_DIR: z.string().min(1).default(path.join(repoRoot, '.data/pglite')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How long the second player has to choose a hand once the first has; then the first wins the toss. */
  OPENER_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /** How long a seated player may be disconnected before the opponent can claim the win. */
  ABANDON_GRACE_MS: z.coerce.number().int().min(0).default(60_000),
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
  /** Open sockets one player, and one remote address, may hold on this process; more are refused at the handshake. */
  MAX_SOCKETS_PER_PLAYER: z.coerce.number().int().min(1).default(10),
  MAX_SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  WEB_BUILD_DIR: z.string().min(1).default(paths.webBuild),
});

export type Config = z.infer<typeof envSchema>;

/** Reads the environment once at start-up; a bad value stops the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Bad configuration: ${problems}`);
  }
  return parsed.data;
}
