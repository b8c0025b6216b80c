import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Searches and pool workers (which compile the sources as they start)
    // are CPU-bound; on a busy shared machine they outlast vitest's 5 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
