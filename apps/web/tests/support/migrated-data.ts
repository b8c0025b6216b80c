import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServerProcess } from '@oanquan/testkit';

/**
 * The suite's global set-up: one PGlite directory that a real server process
 * migrated once, which every test's server starts from a copy of
 * (`migratedDataDir`). Migrating a fresh PGlite directory costs a server
 * seconds of processor (tens of seconds on a busy machine); a copy of a
 * migrated one is a file copy, and its migrator then finds nothing to do.
 */
const TEMPLATE_ENV = 'OANQUAN_WEB_PGLITE_TEMPLATE';

export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'oanquan-web-template-'));
  const server = await startServerProcess({ PGLITE_DATA_DIR: dir, LOG_LEVEL: 'warn', DRAIN_NOTICE_MS: '0' });
  server.child.kill('SIGTERM');
  const code = await server.exited;
  if (code !== 0) throw new Error(`the template's server did not stop cleanly (${code}):\n${server.output()}`);
  process.env[TEMPLATE_ENV] = dir;
  return () => rm(dir, { recursive: true, force: true });
}

/** A fresh PGlite directory for one test's server, already migrated when the global set-up ran; `drop` removes it. */
export async function migratedDataDir(): Promise<{ dir: string; drop(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'oanquan-web-'));
  const template = process.env[TEMPLATE_ENV];
  if (template) await cp(template, dir, { recursive: true });
  return { dir, drop: () => rm(dir, { recursive: true, force: true }) };
}
