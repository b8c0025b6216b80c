// What each server process reports over a load run's measured window, read
// from its metrics before and after: event-loop delay, hot statements and
// main-thread garbage collections.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { metricSample } from '../../src/testing/metric-sample.js';
import { ms } from './stats.js';

/**
 * Event-loop delay over the measured window: a late ack from a blocked server
 * and one from a busy load generator look the same from the ack alone. The
 * server's figures come from its metrics, which reset at every read.
 */
export async function loopDelays(metricsUrls: string[]): Promise<() => Promise<{ loops: string; statements: Array<Map<string, number>> }>> {
  const read = (url: string) => fetch(url).then((r) => r.text());
  const before = (await Promise.all(metricsUrls.map(read))).map(serverCounters);
  const bench = monitorEventLoopDelay({ resolution: 10 });
  bench.enable();
  return async () => {
    bench.disable();
    const fmt = (seconds: number | undefined) => ms((seconds ?? NaN) * 1000);
    const texts = await Promise.all(metricsUrls.map(read));
    const servers = texts.map(
      (text) => `p99 ${fmt(metricSample(text, 'oanquan_nodejs_eventloop_lag_p99_seconds'))} / max ${fmt(metricSample(text, 'oanquan_nodejs_eventloop_lag_max_seconds'))}`,
    );
    const statements = texts.map((text, i) => {
      const delta = new Map<string, number>();
      for (const [name, count] of serverCounters(text)) delta.set(name, count - (before[i]!.get(name) ?? 0));
      return delta;
    });
    return { loops: `event-loop delay: server ${servers.join(' + ') || '–'} ms; load generator p99 ${fmt(bench.percentile(99) / 1e9)} / max ${fmt(bench.max / 1e9)} ms`, statements };
  };
}

/**
 * Counters a server kept so far, from its metrics: the hot path's statements
 * by name, and its main thread's garbage collections by kind, as "gc <kind>"
 * (pauses, in ms) and "gc <kind> count".
 */
function serverCounters(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/^oanquan_hot_statements_total\{statement="([^"]+)"\} (\S+)$/gm)) counts.set(match[1]!, Number(match[2]));
  for (const match of text.matchAll(/^oanquan_nodejs_gc_duration_seconds_(sum|count)\{kind="([^"]+)"\} (\S+)$/gm)) {
    counts.set(match[1] === 'sum' ? `gc ${match[2]}` : `gc ${match[2]} count`, Number(match[3]) * (match[1] === 'sum' ? 1000 : 1));
  }
  return counts;
}
