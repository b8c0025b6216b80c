/// <reference types="vitest/config" />
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [sveltekit()],
  // The engine's worker (src/lib/engine) is an ES module worker.
  worker: { format: 'es' },
  server: {
    // In `vite dev` the API and sockets come from the game server.
    proxy: {
      '/api': 'http://localhost:3000',
      '/socket.io': { target: 'http://localhost:3000', ws: true },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    // One server migrates a PGlite directory once; each browser test's server starts from a copy.
    // One Chromium serves every file.
    globalSetup: ['tests/support/migrated-data.ts', 'tests/support/shared-chromium.ts'],
    // Two files at a time: a browser test waits on its own server process and Chromium most of the time.
    maxWorkers: 2,
    testTimeout: 60_000,
    // Starting a server and Chromium on a busy machine (the server waits up to 180 s for its health answer).
    hookTimeout: 240_000,
  },
});
