// Bundles the server with the workspace packages it imports (TypeScript
// sources, which plain node cannot load) and most of its dependencies into
// dist/, so that it runs as JavaScript without a loader: tsx costs a server
// process tens of MB of memory for as long as it runs.
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

/**
 * Packages that load files of their own at run time (WebAssembly, data, a
 * native addon, worker modules, log transports) stay imports, resolved from
 * apps/server at run time; the rest are bundled, since resolving and loading
 * hundreds of modules one by one was about a fifth of a process's start.
 */
const loadsOwnFiles = ['@prisma/client', '@electric-sql/pglite', 'pglite-prisma-adapter', '@node-rs/argon2', 'piscina', 'pino', 'pino-pretty', 'thread-stream'];

const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@oanquan/') || args.path.startsWith('node:')) return undefined;
      const external = loadsOwnFiles.some((name) => args.path === name || args.path.startsWith(`${name}/`));
      // A package's own imports are its business; only the server's must be its declared dependencies.
      if (args.importer.includes('/node_modules/')) return external ? { path: args.path, external: true } : undefined;
      try {
        import.meta.resolve(args.path);
      } catch {
        return { errors: [{ text: `${args.path} (imported by ${path.relative(serverDir, args.importer)}) is not a dependency of apps/server, so the bundle could not load it` }] };
      }
      return external ? { path: args.path, external: true } : undefined;
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
  // A process keeps its scripts' source for life (V8 compiles functions lazily from it): without
  // whitespace and with shorter syntax (names kept, for stack traces) the bundle's is 5.8 → 3.5 MB,
  // which took the idle process from 147 to 139 MB RSS (`pnpm bench:load --idle 1`).
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [externalPackages],
  // Bundled CommonJS packages require node's own modules.
  banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
});
// The bundled dependencies by the lock file (an install changes it), not by their hundreds of files.
const sources = Object.keys(result.metafile.inputs).filter((file) => !file.includes('node_modules/'));
const inputs = [...sources.map((file) => path.relative(serverDir, path.resolve(file))), '../../pnpm-lock.yaml'];
writeFileSync(path.join(outdir, 'inputs.json'), JSON.stringify(inputs));
