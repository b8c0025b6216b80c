import { afterAll, beforeAll } from 'vitest';
import type { App, AppOptions } from '../app.js';
import type { Database } from '../db/database.js';
import type { EngineName } from './databases.js';
import { startApp, TestClient } from './live.js';

export interface SuiteApp {
  url: string;
  app: App;
  db: Database;
  /** A socket of `token`'s to the app, closed after the tests of the block, before the app. */
  client(token: string): Promise<TestClient>;
}

/**
 * The app of a describe block: started before its tests (within `timeoutMs`,
 * the suite's hook timeout by default), closed after them with every client
 * its tests connected; read its fields inside the tests.
 */
export function appForSuite(engine: EngineName, options: AppOptions = {}, env: Record<string, string> = {}, timeoutMs?: number): SuiteApp {
  const clients: TestClient[] = [];
  const started = {
    async client(token: string) {
      const client = await TestClient.connect(started.url, token);
      clients.push(client);
      return client;
    },
  } as SuiteApp;
  beforeAll(async () => {
    Object.assign(started, await startApp(engine, options, env));
  }, timeoutMs);
  afterAll(async () => {
    for (const client of clients) client.close();
    await started.app?.close();
  });
  return started;
}
