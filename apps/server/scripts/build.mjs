// Bundles the server with the workspace packages it imports (TypeScript
// sources, which plain node cannot load) into dist/, so that it runs as
// JavaScript without a loader: tsx costs a server process tens of MB of
// memory for as long as it runs. Packages from node_modules stay imports,
// resolved from apps/server at run time like those of the sources.
//
// dist/main.js        the server (src/main.ts)
// dist/worker-thread.js the engine's worker module, which the engine pool
//                     looks for beside the module it is bundled into
// dist/cluster.js     `pnpm cluster`'s launcher (src/cluster/run-cluster.ts)
// dist/inputs.json    the files the bundle was made from, so a process
//                     starter can tell a stale build from a fresh one

import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(serverDir, 'dist');

/** Workspace packages are bundled; every other bare import stays one, and must resolve from apps/server. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@oanquan/') || args.path.startsWith('node:')) return undefined;
      try {
        import.meta.resolve(args.path);
      } catch {
        return { errors: [{ text: `${args.path} (imported by ${path.relative(serverDir, args.importer)}) is not a dependency of apps/server, so the bundle could not load it` }] };
      }
      return { path: args.path, external: true };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: {
    main: path.join(serverDir, 'src/main.ts'),
    'worker-thread': path.join(serverDir, '../../packages/engine/src/worker-thread.ts'),
    cluster: path.join(serverDir, 'src/cluster/run-cluster.ts'),
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Maps for a debugger or `node --enable-source-maps` (which costs memory, so not by default).
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  plugins: [externalPackages],
});
const inputs = Object.keys(result.metafile.inputs).map((file) => path.relative(serverDir, path.resolve(file)));
writeFileSync(path.join(outdir, 'inputs.json'), JSON.stringify(inputs));
