import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface ServerEntry {
  /** The bundle (apps/server/dist, made by `pnpm build`) or the TypeScript sources through tsx. */
  kind: 'build' | 'sources';
  /** Node's arguments, run in the server's directory. */
  args: string[];
}

/**
 * How to start the server in `serverDir`: its build when one is there and no
 * file it was made from (listed in dist/inputs.json), nor the build script,
 * has changed since; otherwise its sources through tsx. So a process starts as
 * in production (without the loader's memory) after `pnpm build`, and a test
 * run right after an edit still runs the edit.
 */
export function serverEntry(serverDir: string): ServerEntry {
  const node = serverNodeArgs(serverDir);
  const sources: ServerEntry = { kind: 'sources', args: [...node, '--import', 'tsx', 'src/main.ts'] };
  const mtime = (file: string) => statSync(path.resolve(serverDir, file)).mtimeMs;
  try {
    const built = mtime('dist/main.js');
    const inputs = JSON.parse(readFileSync(path.join(serverDir, 'dist/inputs.json'), 'utf8')) as string[];
    for (const file of [...inputs, 'scripts/build.mjs']) if (mtime(file) > built) return sources;
  } catch {
    // No build, or a file it was made from is gone: the sources are what is there.
    return sources;
  }
  return { kind: 'build', args: [...node, 'dist/main.js'] };
}

/**
 * The options every way of starting the server gives node itself
 * (`node-args.json` beside its package.json: V8 sizes its heap as it starts,
 * before any of the server's code runs, see apps/server/src/heap-sizing.ts).
 */
export function serverNodeArgs(serverDir: string): string[] {
  const file = path.join(serverDir, 'node-args.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as string[]) : [];
}
