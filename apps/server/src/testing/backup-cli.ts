import { spawn } from 'node:child_process';
import path from 'node:path';
import { paths } from '../config.js';

/**
 * `pnpm db:backup` / `db:restore` as an operator runs them (the CLI in a
 * process of its own), on the database `env` names: DATABASE_URL, else
 * PGLITE_DATA_DIR. Answers its exit code and what it wrote.
 */
export function runBackupCli(env: { DATABASE_URL?: string; PGLITE_DATA_DIR?: string }, ...args: string[]): Promise<{ code: number | null; output: string }> {
  const { DATABASE_URL: _url, PGLITE_DATA_DIR: _dir, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/db/backup/backup-cli.ts', ...args], {
    cwd: path.join(paths.repoRoot, 'apps/server'),
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}
