import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * The test files that start or stop processes of their own (server nodes,
 * PostgreSQL, Redis, HAProxy): they time what those processes do across a
 * fault, and two of them at once on two cores starve each other's nodes.
 */
const startsProcesses = /\b(startServerProcess|startCluster|startProxiedCluster|privatePostgres|privateRedis|startRedis)\(/;
const processFiles = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts') && startsProcesses.test(readFileSync(`src/${file}`, 'utf8')))
  .map((file) => `src/${file}`);

export default defineConfig({
  test: {
    // Ceilings for a busy machine: a test that starts its own app migrates a database first, and
    // a server process is given 180 s to answer its health check.
    testTimeout: 60_000,
    hookTimeout: 240_000,
    env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    // Migrates one database of each engine for the whole run; each test's database is a copy.
    globalSetup: ['src/testing/template-databases.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'in-process',
          include: ['src/**/*.test.ts'],
          exclude: processFiles,
          // Two files at a time, whatever the machine: a file spends most of its time waiting on
          // sockets, timers and the database (about a third of it on the processor), and each
          // makes its own databases and ports. More would crowd the shared PostgreSQL's 100 connections.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'processes',
          include: processFiles,
          // One at a time, after the others.
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
