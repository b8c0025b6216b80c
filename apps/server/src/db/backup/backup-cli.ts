import { existsSync, statSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../../config.js';
import { targetFromConfig } from '../database.js';
import { BackupError } from './backup-error.js';
import { backupPglite, isGzip, restorePglite } from './pglite-backup.js';
import { backupPostgres, postgresCounts, restorePostgres } from './postgres-backup.js';

/**
 * `pnpm db:backup [--out <file>]` and `pnpm db:restore <file> [--force]`, on
 * the database the server is configured with (DATABASE_URL, else the
 * embedded one in PGLITE_DATA_DIR). Paths are the caller's: pnpm runs this
 * in apps/server but says where it was called from (INIT_CWD).
 */
const usage = 'usage: db:backup [--out <file>]  |  db:restore <file> [--force]';
const callerDir = process.env.INIT_CWD ?? process.cwd();
const megabytes = (file: string) => `${(statSync(file).size / 1e6).toFixed(1)} MB`;

async function backup(args: string[]): Promise<void> {
  const outIndex = args.indexOf('--out');
  if ((outIndex >= 0 && !args[outIndex + 1]) || args.length !== (outIndex >= 0 ? 2 : 0)) throw new UsageError();
  const target = targetFromConfig(loadConfig());
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const out = path.resolve(callerDir, outIndex >= 0 ? args[outIndex + 1]! : path.join('backups', `oanquan-${target.kind}-${stamp}.${target.kind === 'postgresql' ? 'pgdump' : 'tar.gz'}`));
  if (existsSync(out)) throw new BackupError(`${out} exists: a backup never replaces a file`);
  await mkdir(path.dirname(out), { recursive: true });
  const started = performance.now();
  if (target.kind === 'postgresql') await backupPostgres(target.url, out);
  else await backupPglite(target.dataDir!, out);
  console.log(`backed up ${target.kind} to ${out} (${megabytes(out)}, ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

async function restore(args: string[]): Promise<void> {
  const force = args.includes('--force');
  const files = args.filter((arg) => arg !== '--force');
  if (files.length !== 1 || files[0]!.startsWith('--')) throw new UsageError();
  const file = path.resolve(callerDir, files[0]!);
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  const head = new Uint8Array(5);
  const handle = await open(file);
  await handle.read(head, 0, 5, 0).finally(() => handle.close());
  const kind = new TextDecoder().decode(head) === 'PGDMP' ? 'postgresql' : isGzip(head) ? 'pglite' : undefined;
  const target = targetFromConfig(loadConfig());
  if (!kind) throw new BackupError(`${file} is neither a pg_dump custom-format file nor a dump of the embedded database`);
  if (kind !== target.kind) {
    throw new BackupError(
      `${file} is a backup of ${kind === 'postgresql' ? 'PostgreSQL' : 'the embedded database (PGlite)'}, but the configured database is ${target.kind === 'postgresql' ? 'PostgreSQL (DATABASE_URL)' : 'the embedded one (DATABASE_URL unset)'}`,
    );
  }
  const started = performance.now();
  let counts: { matches: number; moves: number; replaced?: string };
  if (target.kind === 'postgresql') {
    await restorePostgres(file, target.url, force);
    counts = await postgresCounts(target.url);
  } else {
    counts = await restorePglite(file, target.dataDir!, force);
  }
  console.log(`restored ${target.kind} from ${file} (${megabytes(file)}, ${((performance.now() - started) / 1000).toFixed(1)} s): ${counts.matches} matches, ${counts.moves} moves`);
  if (counts.replaced) console.log(`the database it replaced is kept in ${counts.replaced}`);
}

class UsageError extends Error {}

const [command, ...args] = process.argv.slice(2);
try {
  if (command === 'backup') await backup(args);
  else if (command === 'restore') await restore(args);
  else throw new UsageError();
} catch (error) {
  if (error instanceof UsageError) {
    console.error(usage);
    process.exit(2);
  }
  console.error(`db:${command}: ${error instanceof BackupError ? error.message : String((error as Error).stack ?? error)}`);
  process.exit(1);
}
