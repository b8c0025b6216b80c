import { existsSync, readdirSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dataDirHolder } from '../data-dir-holder.js';
import { BackupError, partialPath } from './backup-error.js';

/** The first bytes of a gzip stream: what PGlite's dumpDataDir('gzip') writes. */
export const isGzip = (bytes: Uint8Array) => bytes[0] === 0x1f && bytes[1] === 0x8b;

function refuseWhileHeld(dataDir: string, what: string): void {
  const pid = dataDirHolder(dataDir);
  if (pid !== undefined) {
    throw new BackupError(`the server (process ${pid}) has the embedded database ${dataDir} open: stop it before ${what}`);
  }
}

/**
 * PGlite's own dump of its directory (a gzipped tar that `loadDataDir`
 * reads), taken while no server has it open: PGlite is one process's
 * database, so a copy under a running server could be torn. Opening it
 * first also replays what a crashed server left in its log.
 */
export async function backupPglite(dataDir: string, out: string): Promise<void> {
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) throw new BackupError(`no embedded database at ${dataDir} (PGLITE_DATA_DIR)`);
  refuseWhileHeld(dataDir, 'backing it up (the embedded database is backed up while stopped; PostgreSQL is backed up online)');
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite({ dataDir });
  const partial = partialPath(out);
  try {
    await db.waitReady;
    const dump = await db.dumpDataDir('gzip');
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()), { flag: 'wx' });
    await rename(partial, out);
  } finally {
    await db.close();
    await rm(partial, { force: true });
  }
}

/**
 * Makes `dataDir` the backed-up database: loaded into a new directory beside
 * it, then moved into place. A directory that holds anything is replaced only
 * with `force`, and then kept beside as `<dir>.replaced-<time>`, never deleted.
 */
export async function restorePglite(file: string, dataDir: string, force: boolean): Promise<{ matches: number; moves: number; replaced?: string }> {
  const bytes = await readFile(file);
  if (!isGzip(bytes)) throw new BackupError(`${file} is not a backup of the embedded database (PGlite's dumps are gzipped tars)`);
  const occupied = existsSync(dataDir) && readdirSync(dataDir).length > 0;
  if (occupied) {
    refuseWhileHeld(dataDir, 'restoring over it');
    if (!force) throw new BackupError(`${dataDir} already holds a database: restore into an empty directory (PGLITE_DATA_DIR), or pass --force to replace it (it is kept beside)`);
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const loading = `${dataDir}.restoring-${stamp}`;
  const { PGlite } = await import('@electric-sql/pglite');
  let counts: { matches: number; moves: number };
  try {
    const db = new PGlite({ dataDir: loading, loadDataDir: new Blob([bytes]) });
    try {
      await db.waitReady;
      const { rows } = await db.query<{ matches: number; moves: number }>('SELECT (SELECT count(*) FROM match)::int AS matches, (SELECT count(*) FROM move)::int AS moves');
      counts = rows[0]!;
    } finally {
      await db.close();
    }
  } catch (error) {
    await rm(loading, { recursive: true, force: true });
    throw error instanceof BackupError ? error : new BackupError(`${file} could not be loaded: ${(error as Error).message}`);
  }
  let replaced: string | undefined;
  if (occupied) {
    replaced = `${dataDir}.replaced-${stamp}`;
    await rename(dataDir, replaced);
  } else {
    await rm(dataDir, { recursive: true, force: true });
  }
  await rename(loading, dataDir);
  return { ...counts, replaced };
}
