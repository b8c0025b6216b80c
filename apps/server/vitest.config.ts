import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Two files at a time, whatever the machine: a file spends most of its time waiting on
    // servers, sockets and timers (about a third of it on the processor), and each makes its
    // own databases, Redis and ports. More would crowd the shared PostgreSQL's 100 connections
    // and, on two cores, the tests that time what a process does.
    maxWorkers: 2,
    // Ceilings for a busy machine: a test that starts its own app migrates a database first, and
    // a server process is given 180 s to answer its health check.
    testTimeout: 60_000,
    hookTimeout: 240_000,
    env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
  },
});
