import { afterAll, beforeAll } from 'vitest';
import type { App, AppOptions } from '../app.js';
import type { Database } from '../db/database.js';
import type { EngineName } from './databases.js';
import { startApp } from './live.js';

/** The app of a describe block: started before its tests, closed after them; read its fields inside the tests. */
export function appForSuite(engine: EngineName, options: AppOptions = {}, env: Record<string, string> = {}): { url: string; app: App; db: Database } {
  const started = {} as { url: string; app: App; db: Database };
  beforeAll(async () => {
    Object.assign(started, await startApp(engine, options, env));
  });
  afterAll(() => started.app?.close());
  return started;
}
