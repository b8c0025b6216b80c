// Every package's test suite, and the typecheck, each its own process, side by
// side, some after others (see AFTER): the suites share no database, port or
// file (each makes its own throw-away databases and takes spare ports). Each output line is prefixed with
// its suite; the end lists each suite's time, and the run fails if any suite
// failed. A failed suite's failures are repeated, briefly, just above that list,
// where a log cut to its tail still shows them. Arguments, when given, name the
// package directories to run, without the typecheck
// (`node scripts/test-suites.mjs apps/server packages/rules`).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function workspacePackages() {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(path.join(root, group))
      .map((name) => path.join(group, name))
      .filter((dir) => existsSync(path.join(root, dir, 'package.json'))),
  );
}

const dirs = process.argv.length > 2 ? process.argv.slice(2) : workspacePackages();
// The server's suite runs as its two vitest projects (apps/server/vitest.config.ts), so that
// others can wait for the first.
const SPLIT = { '@oanquan/server': ['in-process', 'processes'] };
const suites = dirs
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => manifest.scripts?.test)
  .flatMap(({ dir, manifest }) =>
    (SPLIT[manifest.name] ?? ['']).map((part) =>
      part ? { dir, name: `${manifest.name} ${part}`, script: `test:${part}` } : { dir, name: manifest.name, script: 'test' },
    ),
  );
// Every package's typecheck (tsc, svelte-check), beside the tests rather than before them.
if (process.argv.length <= 2) suites.push({ dir: '.', name: 'typecheck', script: 'typecheck' });
const width = Math.max(...suites.map((suite) => suite.name.length));
const children = new Set();

const ANSI = /\x1b\[[0-9;]*m/g;

/** Each failed test's heading and the first lines of its error, from vitest's "Failed Tests" section. */
function failureDigest(lines, perFailure = 8, most = 60) {
  const start = lines.findIndex((line) => /Failed Tests \d+/.test(line));
  if (start < 0) return lines.filter((line) => /×|FAIL|error/i.test(line)).slice(0, most);
  const digest = [];
  let left = 0;
  for (const line of lines.slice(start + 1)) {
    if (/^\s*Test Files\s/.test(line)) break;
    if (/^\s*FAIL\s/.test(line)) left = perFailure;
    if (left > 0 && line.trim()) {
      digest.push(line);
      left--;
    }
  }
  return digest.slice(0, most);
}

function prefixed(stream, label, out, kept) {
  let pending = '';
  const write = (line) => {
    kept.push(line.replace(ANSI, ''));
    out.write(`${label} ${line}\n`);
  };
  stream.on('data', (chunk) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop();
    for (const line of lines) write(line);
  });
  stream.on('end', () => pending && write(pending));
}

function run(suite) {
  const started = Date.now();
  const label = `[${suite.name.padEnd(width)}]`;
  // Its own process group, so an interrupted run stops the suite's servers and browsers too.
  const child = spawn('pnpm', ['run', suite.script], { cwd: path.join(root, suite.dir), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.add(child);
  const lines = [];
  prefixed(child.stdout, label, process.stdout, lines);
  prefixed(child.stderr, label, process.stderr, lines);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      children.delete(child);
      resolve({ ...suite, lines, ok: code === 0, result: code === 0 ? 'passed' : `FAILED (${code ?? signal})`, seconds: (Date.now() - started) / 1000 });
    });
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const child of children) process.kill(-child.pid, 'SIGTERM');
    process.exit(1);
  });
}

// The server's in-process files keep both cores busy. The server's files that
// start processes of their own mostly wait on them (one at a time, a load of
// about 1.3), and the web's browser tests mostly wait on servers, pages and
// timers (under one core): those two run side by side once the in-process files
// are done. All three at once loaded two cores to 20, and a browser test whose
// puzzles come from a lowest-priority engine thread failed twice in three runs.
const AFTER = { '@oanquan/web': '@oanquan/server in-process', '@oanquan/server processes': '@oanquan/server in-process' };
const started = Date.now();
const finished = new Map();
for (const suite of suites) {
  const before = finished.get(AFTER[suite.name]) ?? Promise.resolve();
  finished.set(suite.name, before.then(() => run(suite)));
}
const results = await Promise.all(finished.values());
for (const result of results.filter((result) => !result.ok)) {
  console.log(`\n${result.name} failed:`);
  for (const line of failureDigest(result.lines)) console.log(`  ${line}`);
}
/** The files that took longest, from each suite's vitest lines ("✓ path (n tests) 1234ms"): where the time goes. */
function slowestFiles(results, most = 15) {
  const files = results.flatMap((result) =>
    result.lines.flatMap((text) => {
      const found = /^\s*[✓×❯↓]\s+(?:[\w-]+\s+)?(\S+\.test\.ts)\s+\([^)]*\)\s+(\d+)ms/.exec(text);
      return found ? [{ suite: result.name, file: found[1], seconds: Number(found[2]) / 1000 }] : [];
    }),
  );
  return files.sort((a, b) => b.seconds - a.seconds).slice(0, most);
}
const slow = slowestFiles(results);
if (slow.length) {
  console.log('\nSlowest test files (files of one suite run side by side):');
  for (const { suite, file, seconds } of slow) console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${suite.padEnd(width)}  ${file}`);
}
const line = (name, result, seconds) => `  ${name.padEnd(width)}  ${result.padEnd(12)} ${seconds.toFixed(1).padStart(7)} s`;
console.log('\nTest suites (side by side, the web\'s and the server\'s processes after the server\'s in-process files):');
for (const result of results.sort((a, b) => b.seconds - a.seconds)) console.log(line(result.name, result.result, result.seconds));
const failed = results.filter((result) => !result.ok);
console.log(line('all', failed.length ? `FAILED (${failed.length})` : 'passed', (Date.now() - started) / 1000));
process.exit(failed.length ? 1 : 0);
