// `npm start`: install and build only what is out of date, then run the
// server itself (not through pnpm), so Ctrl+C is a clean stop that exits 0.

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = path.join(root, 'node_modules', '.oanquan-start.json');
const PNPM = ['--yes', 'pnpm@12.4.2'];
const SKIP = new Set(['node_modules', 'dist', 'build', '.svelte-kit', 'generated', 'test-artifacts', '.data']);
const WORKSPACES = ['packages', 'apps'];

/** Every file a build reads, by path, size and modification time: cheap, and any edit changes it. */
function sourcesFingerprint() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (SKIP.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const stat = statSync(full);
        hash.update(`${path.relative(root, full)}\0${stat.size}\0${stat.mtimeMs}\n`);
      }
    }
  };
  for (const dir of WORKSPACES) walk(path.join(root, dir));
  for (const file of ['tsconfig.base.json', 'package.json']) hash.update(readFileSync(path.join(root, file)));
  return hash.digest('hex');
}

/** What an install depends on: the lock file, the manifests, the Prisma schema (the client is generated after install). */
function installFingerprint() {
  const hash = createHash('sha256');
  const files = ['pnpm-lock.yaml', 'pnpm-workspace.yaml', 'package.json', 'prisma/schema.prisma'];
  for (const dir of WORKSPACES) {
    for (const name of readdirSync(path.join(root, dir))) files.push(path.join(dir, name, 'package.json'));
  }
  for (const file of files.sort()) {
    const full = path.join(root, file);
    if (existsSync(full)) hash.update(`${file}\0`).update(readFileSync(full));
  }
  return hash.digest('hex');
}

function readStamps() {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return {};
  }
}

function run(args, what) {
  console.log(`${what}…`);
  const result = spawnSync('npx', [...PNPM, ...args], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${what} failed`);
    process.exit(result.status ?? 1);
  }
}

const stamps = readStamps();
const install = installFingerprint();
if (stamps.install !== install || !existsSync(path.join(root, 'node_modules', '.modules.yaml'))) {
  run(['install', '--frozen-lockfile'], 'Installing dependencies');
  stamps.install = install;
  stamps.build = undefined;
  writeFileSync(stampFile, JSON.stringify(stamps));
}
const sources = sourcesFingerprint();
const built = ['apps/web/build/handler.js', 'apps/server/dist/main.js'].every((file) => existsSync(path.join(root, file)));
if (stamps.build !== sources || !built) {
  run(['build'], 'Building');
  stamps.build = sources;
  writeFileSync(stampFile, JSON.stringify(stamps));
}

// The build (JavaScript, no loader): see apps/server/scripts/build.mjs; node's own
// options (the heap's sizes, see apps/server/src/heap-sizing.ts) from node-args.json.
const serverDir = path.join(root, 'apps/server');
const nodeArgs = JSON.parse(readFileSync(path.join(serverDir, 'node-args.json'), 'utf8'));
const server = spawn(process.execPath, [...nodeArgs, 'dist/main.js'], {
  cwd: serverDir,
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' },
  stdio: 'inherit',
});
// Ctrl+C reaches the server too (same process group); wait for its orderly stop instead of dying first.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (server.exitCode === null) server.kill(signal);
  });
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
