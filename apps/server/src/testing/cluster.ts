import { startServerProcess, type ServerProcess } from '@oanquan/testkit';
import { scratchTarget } from './databases.js';

export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Two real server processes sharing one throw-away PostgreSQL database and
 * Redis, as behind a load balancer. Both migrate at start-up, at the same
 * time, under the advisory lock.
 */
export async function startCluster(env: Record<string, string> = {}): Promise<{
  servers: [ServerProcess, ServerProcess];
  databaseUrl: string;
  stop(): Promise<void>;
}> {
  const scratch = await scratchTarget('postgresql');
  if (scratch.target.kind !== 'postgresql') throw new Error('expected PostgreSQL');
  const databaseUrl = scratch.target.url;
  const settings = { DATABASE_URL: databaseUrl, REDIS_URL: testRedisUrl, LOG_LEVEL: 'warn', ...env };
  const servers = (await Promise.all([startServerProcess(settings), startServerProcess(settings)])) as [ServerProcess, ServerProcess];
  return {
    servers,
    databaseUrl,
    async stop() {
      for (const server of servers) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      await scratch.drop();
    },
  };
}
