import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { privateRedis } from '@oanquan/testkit';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../config.js';
import { startApp } from '../testing/live.js';

const run = promisify(execFile);
const promtool = process.env.PROMTOOL_BIN ?? '/usr/bin/promtool';
const deploy = path.join(paths.repoRoot, 'deploy');
const read = (file: string) => readFileSync(path.join(deploy, file), 'utf8');

interface Panel {
  id: number;
  title: string;
  datasource?: { uid: string };
  targets?: Array<{ expr: string; datasource?: { uid: string } }>;
}
const dashboard = JSON.parse(read('grafana/dashboards/oanquan.json')) as { uid: string; panels: Panel[] };
const alerts = parse(read('prometheus/alerts.yml')) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> };

/** Series Prometheus makes itself, not the server. */
const prometheusOwn = new Set(['up']);
const promqlWords = new Set(['and', 'or', 'unless', 'bool', 'offset']);

/**
 * The metric names a PromQL expression reads: its identifiers, less label
 * matchers, strings, ranges, grouping label lists, operators' words and
 * function calls (an identifier followed by a parenthesis).
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"[^"]*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  return [...bare.matchAll(/\b([a-zA-Z_][\w:]*)\b(?!\s*\()/g)].map((match) => match[1]!).filter((name) => !promqlWords.has(name));
}

/** Every series name a Prometheus text exposition offers: a histogram's buckets, counts and sums, a summary's quantiles, counts and sums. */
function exportedSeries(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const suffixes = type === 'histogram' ? ['_bucket', '_count', '_sum'] : type === 'summary' ? ['', '_count', '_sum'] : [''];
    for (const suffix of suffixes) names.add(`${name}${suffix}`);
  }
  return names;
}

describe('the monitoring configuration in deploy/', () => {
  it('passes promtool: the Prometheus configuration, the alerting rules, and their unit tests (each alert fires when it should, not before)', async () => {
    const options = { cwd: path.join(deploy, 'prometheus') };
    expect((await run(promtool, ['check', 'config', 'prometheus.yml'], options)).stdout).toContain('SUCCESS');
    expect((await run(promtool, ['check', 'rules', 'alerts.yml'], options)).stdout).toContain('SUCCESS: 4 rules found');
    expect((await run(promtool, ['test', 'rules', 'alerts.test.yml'], options)).stdout).toContain('SUCCESS');
    // Each alert has a test that expects it to fire.
    const tested = read('prometheus/alerts.test.yml');
    for (const rule of alerts.groups.flatMap((group) => group.rules)) expect(tested).toMatch(new RegExp(`alertname: ${rule.alert}\\n\\s+exp_alerts:\\n\\s+- exp_labels`));
  });

  it('scrapes the port the compose file gives the app nodes, and provisions Prometheus and Grafana with these files', () => {
    const compose = parse(read('../docker-compose.yml'), { merge: true }) as {
      services: Record<string, { environment?: Record<string, string>; volumes?: string[]; profiles?: string[] }>;
    };
    const prometheus = parse(read('prometheus/prometheus.yml')) as { scrape_configs: Array<{ static_configs: Array<{ targets: string[] }> }> };
    const targets = prometheus.scrape_configs.flatMap((job) => job.static_configs.flatMap((config) => config.targets));
    const apps = Object.keys(compose.services).filter((name) => /^app\d+$/.test(name));
    expect(targets.sort()).toEqual(apps.map((name) => `${name}:${compose.services[name]!.environment!.METRICS_PORT}`).sort());
    expect(compose.services.prometheus!.volumes).toEqual(expect.arrayContaining(['./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro', './deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro']));
    expect(compose.services.grafana!.volumes).toEqual(expect.arrayContaining(['./deploy/grafana/provisioning:/etc/grafana/provisioning:ro', './deploy/grafana/dashboards:/var/lib/grafana/dashboards:ro']));
    const datasource = parse(read('grafana/provisioning/datasources/prometheus.yml')) as { datasources: Array<{ uid: string }> };
    for (const panel of dashboard.panels) {
      expect({ panel: panel.title, uid: panel.datasource?.uid }).toEqual({ panel: panel.title, uid: datasource.datasources[0]!.uid });
    }
  });

  it('reads names the way PromQL does', () => {
    expect(metricNames('histogram_quantile(0.99, sum by (le, pool) (rate(oanquan_x_bucket{result=~"a|b"}[5m]))) > 0.25')).toEqual(['oanquan_x_bucket']);
    expect(metricNames('sum(rate(a_total[1m])) / sum without (edge) (b) and on (instance) up == 0')).toEqual(['a_total', 'b', 'up']);
  });

  describe("against a real server's /metrics (PostgreSQL and Redis, so that every metric is there)", () => {
    let exported: Set<string>;
    const cleanups: Array<() => Promise<unknown>> = [];
    beforeAll(async () => {
      const redis = await privateRedis();
      cleanups.push(() => redis.stop());
      const { app } = await startApp('postgresql', {}, { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', REDIS_URL: redis.url });
      cleanups.push(() => app.close());
      exported = exportedSeries(await (await fetch(`http://127.0.0.1:${app.metricsPort}/metrics`)).text());
    });
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it("has every panel of the dashboard read only metrics the server exports, and cover what an operator looks at first", () => {
      expect(dashboard.uid).toBe('oanquan');
      expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
      const used = new Set<string>();
      for (const panel of dashboard.panels) {
        expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
        for (const { expr } of panel.targets!) {
          const names = metricNames(expr);
          expect(names.length, `${panel.title}: ${expr}`).toBeGreaterThan(0);
          for (const name of names) {
            used.add(name);
            expect({ panel: panel.title, name, exported: exported.has(name) || prometheusOwn.has(name) }).toEqual({ panel: panel.title, name, exported: true });
          }
        }
      }
      for (const needed of [
        'oanquan_move_ack_seconds_count',
        'oanquan_move_ack_seconds_bucket',
        'oanquan_nodejs_eventloop_lag_p99_seconds',
        'oanquan_database_up',
        'oanquan_redis_connected',
        'oanquan_queue_wait_seconds_bucket',
        'oanquan_live_matches',
        'oanquan_connected_sockets',
        'up',
      ]) {
        expect(used).toContain(needed);
      }
    });

    it('has every alert read only metrics the server exports', () => {
      for (const rule of alerts.groups.flatMap((group) => group.rules)) {
        const names = metricNames(rule.expr);
        expect(names.length, rule.alert).toBeGreaterThan(0);
        for (const name of names) expect({ alert: rule.alert, name, exported: exported.has(name) || prometheusOwn.has(name) }).toEqual({ alert: rule.alert, name, exported: true });
      }
    });
  });
});
