import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverEntry } from './server-entry.js';

describe('serverEntry', () => {
  let dir: string;
  const at = (file: string, seconds: number) => utimes(path.join(dir, file), seconds, seconds);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'oanquan-entry-'));
    await mkdir(path.join(dir, 'src'));
    await mkdir(path.join(dir, 'scripts'));
    await mkdir(path.join(dir, 'dist'));
    await writeFile(path.join(dir, 'src/main.ts'), '');
    await writeFile(path.join(dir, 'scripts/build.mjs'), '');
    await writeFile(path.join(dir, 'dist/main.js'), '');
    await writeFile(path.join(dir, 'dist/inputs.json'), JSON.stringify(['src/main.ts']));
    await at('src/main.ts', 1000);
    await at('scripts/build.mjs', 1000);
    await at('dist/main.js', 2000);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('runs the build when nothing it was made from changed since', () => {
    expect(serverEntry(dir)).toEqual({ kind: 'build', args: ['dist/main.js'] });
  });

  it('runs the sources when one of them changed after the build', async () => {
    await at('src/main.ts', 3000);
    expect(serverEntry(dir)).toEqual({ kind: 'sources', args: ['--import', 'tsx', 'src/main.ts'] });
  });

  it('runs the sources when the build script changed after the build', async () => {
    await at('scripts/build.mjs', 3000);
    expect(serverEntry(dir).kind).toBe('sources');
  });

  it("gives node the options in node-args.json first, when there is one", async () => {
    await writeFile(path.join(dir, 'node-args.json'), JSON.stringify(['--max-semi-space-size=2']));
    expect(serverEntry(dir)).toEqual({ kind: 'build', args: ['--max-semi-space-size=2', 'dist/main.js'] });
    await at('src/main.ts', 3000);
    expect(serverEntry(dir).args).toEqual(['--max-semi-space-size=2', '--import', 'tsx', 'src/main.ts']);
  });

  it('runs the sources when there is no build, or a file it was made from is gone', async () => {
    await rm(path.join(dir, 'src/main.ts'));
    expect(serverEntry(dir).kind).toBe('sources');
    await rm(path.join(dir, 'dist'), { recursive: true });
    expect(serverEntry(dir).kind).toBe('sources');
  });
});
