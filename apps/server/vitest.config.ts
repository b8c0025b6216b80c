import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * The test files that start or stop processes of their own (server nodes,
 * PostgreSQL, HAProxy, or a Redis they stop during a test): they time what
 * those processes do across a fault, and two of them at once on two cores
 * starve each other's nodes. A file whose only process is a Redis that runs
 * until its end (stopped once, after its tests) waits on nothing of the kind,
 * and runs with the others.
 */
const startsNodes = /\b(startServerProcess|startCluster|startProxiedCluster|launchCluster|privatePostgres)\(/;
const startsRedis = /\b(privateRedis|startRedis)\(/;
const stopsRedisInATest = (text: string) => (text.match(/\bredis\??\.stop\(\)/g) ?? []).length > 1;
const processFiles = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .filter((file) => {
    if (!file.endsWith('.test.ts')) return false;
    const text = readFileSync(`src/${file}`, 'utf8');
    return startsNodes.test(text) || (startsRedis.test(text) && stopsRedisInATest(text));
  })
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
    // A worker keeps its modules from one file to the next: loading the app's modules afresh for
    // each file cost about half of the suite's processor time (a sample of 56 files: 124 s of CPU
    // isolated, 59 s not). Tests share no module state they rely on: each builds its own app.
    isolate: false,
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
