// The inner loop: only the tests that the files changed since a git ref (by
// default `main`; uncommitted and untracked files included) can affect, in
// every package, one package after another. Each package's vitest follows the
// imports of its test files across the workspace (the packages export their
// sources), so a change to packages/rules runs the rules' own tests and the
// server's tests that import it. What no test imports is not followed: the
// browser tests drive the built app, and the server's multi-process tests run
// its build, so a page or a server module changed runs them only if a test
// file of theirs changed too (name one to run it: see the README's "Tests").
//
//   node scripts/test-changed.mjs [ref]      (pnpm test:changed [ref])
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

const ref = process.argv[2] ?? 'main';
try {
  git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`);
} catch {
  console.error(`test:changed: "${ref}" is not a commit here; name one: pnpm test:changed <ref>`);
  process.exit(2);
}
const base = git('merge-base', ref, 'HEAD');
const changed = [
  ...git('diff', '--name-only', base).split('\n'),
  ...git('ls-files', '--others', '--exclude-standard').split('\n'),
].filter(Boolean);
if (changed.length === 0) {
  console.log(`test:changed: nothing changed since ${ref}`);
  process.exit(0);
}
console.log(`test:changed: ${changed.length} file(s) changed since ${ref}`);

const run = (command, args, cwd = root) => spawnSync(command, args, { cwd, stdio: 'inherit' }).status ?? 1;

// The browser tests and the multi-process tests run what the build made.
if (changed.some((file) => /^(apps|packages)\//.test(file)) && run('pnpm', ['build']) !== 0) process.exit(1);

const packages = ['packages', 'apps']
  .flatMap((group) => readdirSync(path.join(root, group)).map((name) => path.join(group, name)))
  .filter((dir) => existsSync(path.join(root, dir, 'package.json')))
  .filter((dir) => JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8')).scripts?.test);

const failed = [];
for (const dir of packages) {
  console.log(`\n--- ${dir}`);
  if (run('pnpm', ['exec', 'vitest', 'run', '--changed', base, '--passWithNoTests'], path.join(root, dir)) !== 0) failed.push(dir);
}
console.log(failed.length ? `\ntest:changed: FAILED in ${failed.join(', ')}` : '\ntest:changed: passed');
process.exit(failed.length ? 1 : 0);
