import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The property tests play hundreds of random games each: CPU-bound, they
    // outlast vitest's 5 s on a busy shared machine.
    testTimeout: 60_000,
  },
});
