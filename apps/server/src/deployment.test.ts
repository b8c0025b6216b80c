import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { paths } from './config.js';

// No Docker engine runs the tests, so these read the files Docker would.
const dockerfile = readFileSync(path.join(paths.repoRoot, 'Dockerfile'), 'utf8');
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

describe('the Docker image', () => {
  it('runs the server as an unprivileged user, after everything that needs root', () => {
    const users = instructions.filter((line) => /^USER\s/i.test(line));
    const user = users.at(-1)?.split(/\s+/)[1];
    expect(user).toBeDefined();
    expect(['root', '0', '0:0', 'root:root']).not.toContain(user);
    const lastRun = instructions.findLastIndex((line) => /^RUN\s/i.test(line));
    expect(instructions.indexOf(users.at(-1)!)).toBeGreaterThan(lastRun);
  });

  it('runs on the current long-term support line of Node.js (24), which the tests also run on: `pnpm test:node24`', () => {
    const from = instructions.find((line) => /^FROM\s/i.test(line))!;
    expect(from).toMatch(/^FROM\s+node:24[-.\w]*$/);
    const scripts = (JSON.parse(readFileSync(path.join(paths.repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['test:node24']).toContain('node@24');
  });

  it('lets that user write the embedded database under .data/', () => {
    const user = instructions.findLast((line) => /^USER\s/i.test(line))!.split(/\s+/)[1]!;
    const owner = user.split(':')[0]!;
    expect(instructions.some((line) => /^RUN\s/i.test(line) && new RegExp(`chown\\s+(-R\\s+)?${owner}(:\\S+)?\\s+\\S*\\.data\\b`).test(line))).toBe(true);
  });
});

describe('docker compose', () => {
  it('restarts every service that stops on its own', () => {
    const compose = parse(readFileSync(path.join(paths.repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, { restart?: string }>;
    };
    const services = Object.entries(compose.services);
    expect(services.length).toBeGreaterThan(0);
    for (const [name, service] of services) {
      expect({ name, restart: service.restart }).toEqual({ name, restart: expect.stringMatching(/^(on-failure(:\d+)?|unless-stopped|always)$/) });
    }
  });
});
