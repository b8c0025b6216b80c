import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serverEntry } from '@oanquan/testkit';
import { describe, expect, it } from 'vitest';
import { paths } from './config.js';

const serverDir = path.join(paths.repoRoot, 'apps/server');
const nodeArgs = JSON.parse(readFileSync(path.join(serverDir, 'node-args.json'), 'utf8')) as string[];

/** V8 sizes the young generation as node starts, so every way of starting the server must hand node-args.json to node itself. */
describe("the server's node options", () => {
  it('cap the young generation', () => {
    expect(nodeArgs).toContain('--max-semi-space-size=8');
  });

  it('are given by the package start script, ahead of the build', () => {
    const manifest = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as { scripts: { start: string } };
    expect(manifest.scripts.start).toContain(`node ${nodeArgs.join(' ')} dist/main.js`);
  });

  it("are given by the tests' and benchmarks' server processes, build or sources", () => {
    const entry = serverEntry(serverDir);
    expect(entry.args.slice(0, nodeArgs.length)).toEqual(nodeArgs);
  });

  it('are read by `npm start` and `pnpm cluster`', () => {
    for (const starter of [path.join(paths.repoRoot, 'scripts/start.mjs'), path.join(serverDir, 'src/cluster/run-cluster.ts')]) {
      expect(readFileSync(starter, 'utf8')).toMatch(/readFileSync\(path\.join\(serverDir, 'node-args\.json'\)/);
    }
  });
});
