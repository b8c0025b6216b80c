/**
 * Where a move's CPU goes, layer by layer, the floor relay's beside the
 * server's: reads the CPU profiles of a `pnpm bench:load --cpu-prof DIR` run,
 * keeps each process's main-thread samples inside the run's measured window
 * (DIR/<run>.<pid>.window.json, written by the bench: without it the
 * start-up and the crowd's arrival, Prisma and all, drown the steady play),
 * names the frames of the bundled server by its source map, and prints
 * microseconds per acknowledged move for each package, source file or
 * function, largest difference from the first run first.
 *
 *   pnpm bench:profile DIR [--by package|file|function] [--top 30]
 *
 * A profile is sampled on the wall clock: a process waiting for the core
 * (pinned beside PostgreSQL) is blamed on what it waited in, `writev` above
 * all, which is why that frame is shown apart from the busy time.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';

/** What the load bench writes beside a measured process's profile. */
export interface ProfileWindow {
  label: string;
  pid: number;
  /** The measured window, in microseconds of the monotonic clock that profiles are stamped with. */
  fromUs: number;
  toUs: number;
  /** Moves acknowledged in the window (all processes together: a process's share of them is not known). */
  moves: number;
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface Profile {
  nodes: Array<{ id: number; callFrame: CallFrame }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

type Grouping = 'package' | 'file' | 'function';

/** Frames shown apart from the busy time: the loop waiting, and the write that a descheduled process is caught in. */
const apart = new Set(['(idle)', 'writev']);

/** Microseconds of samples per frame inside the window, and the window's busy total outside `apart`. */
function selfTimes(profile: Profile, fromUs: number, toUs: number): { byFrame: Map<CallFrame, number>; busyUs: number; writevUs: number } {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFrame = new Map<CallFrame, number>();
  let at = profile.startTime;
  let busyUs = 0;
  let writevUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    // A sample stands for the time until the next one.
    const lasted = profile.timeDeltas[i + 1] ?? 0;
    if (at < fromUs || at > toUs) continue;
    const frame = frames.get(profile.samples[i]!)!;
    if (frame.functionName === 'writev') writevUs += lasted;
    if (apart.has(frame.functionName)) continue;
    busyUs += lasted;
    byFrame.set(frame, (byFrame.get(frame) ?? 0) + lasted);
  }
  return { byFrame, busyUs, writevUs };
}

/** Names a frame by the source it came from: a bundle's frames through the bundle's source map, when there is one. */
class FrameNames {
  private readonly maps = new Map<string, TraceMap | null>();

  name(frame: CallFrame, by: Grouping): string {
    const { source, line } = this.origin(frame);
    const where = source
      .replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, 'node_modules/')
      .replace(/^.*\/(apps|packages)\//, '$1/')
      .replace(/^(\.\.\/)+/, '');
    if (by === 'function') return `${frame.functionName || '(anonymous)'} ${where}:${line}`;
    if (by === 'file') return where;
    return layer(where);
  }

  private origin(frame: CallFrame): { source: string; line: number } {
    const fallback = { source: frame.url || frame.functionName || '(native, unnamed)', line: frame.lineNumber + 1 };
    if (!frame.url.startsWith('file://')) return fallback;
    const map = this.mapOf(frame.url);
    if (!map) return { ...fallback, source: fileURLToPath(frame.url) };
    const position = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
    return position.source ? { source: position.source, line: position.line ?? 0 } : fallback;
  }

  private mapOf(url: string): TraceMap | null {
    if (!this.maps.has(url)) {
      const file = `${fileURLToPath(url)}.map`;
      // The map's own path resolves its relative sources (a package's dist/x.js.map names ../src/x.ts).
      this.maps.set(url, existsSync(file) ? new TraceMap(readFileSync(file, 'utf8'), file) : null);
    }
    return this.maps.get(url)!;
  }
}

/** A source path's layer: an npm package, a module of Node's, or a folder of the project's own. */
function layer(where: string): string {
  const dependency = /^node_modules\/((@[^/]+\/)?[^/]+)/.exec(where);
  if (dependency) return dependency[1]!;
  if (where.startsWith('node:')) return `node:${where.slice(5).split('/')[0]}`;
  const own = /^(apps\/[^/]+\/[^/]+\/[^/]+|packages\/[^/]+)/.exec(where);
  return own ? own[1]! : where;
}

function main(): void {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { by: { type: 'string', default: 'package' }, top: { type: 'string', default: '30' } } });
  const dir = positionals[0];
  if (!dir) throw new Error('usage: pnpm bench:profile DIR [--by package|file|function] [--top 30]');
  const by = values.by as Grouping;
  const files = readdirSync(dir);
  const windows = files.filter((file) => file.endsWith('.window.json')).map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as ProfileWindow);
  windows.sort((a, b) => a.fromUs - b.fromUs);
  const names = new FrameNames();
  const columns: Array<{ title: string; perMove: Map<string, number>; busy: number; writev: number }> = [];
  for (const window of windows) {
    // Node names a profile CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile; thread 0 is the main thread.
    const file = files.find((name) => name.endsWith('.cpuprofile') && name.includes(`.${window.pid}.0.`));
    if (!file) continue;
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile;
    const { byFrame, busyUs, writevUs } = selfTimes(profile, window.fromUs, window.toUs);
    const perMove = new Map<string, number>();
    for (const [frame, us] of byFrame) {
      const name = names.name(frame, by);
      perMove.set(name, (perMove.get(name) ?? 0) + us / window.moves);
    }
    columns.push({ title: `${window.label} (pid ${window.pid}, ${window.moves} moves)`, perMove, busy: busyUs / window.moves, writev: writevUs / window.moves });
  }
  if (!columns.length) throw new Error(`no measured window with its profile in ${dir}: run pnpm bench:load --cpu-prof ${dir}`);
  // Against the first run; a run alone is sorted by its own figures.
  const base = columns.length > 1 ? columns[0]!.perMove : new Map<string, number>();
  const keys = [...new Set(columns.flatMap((column) => [...column.perMove.keys()]))];
  const spread = (key: string) => Math.max(...columns.map((column) => Math.abs((column.perMove.get(key) ?? 0) - (base.get(key) ?? 0))));
  keys.sort((a, b) => spread(b) - spread(a));
  const cell = (us: number | undefined) => (us === undefined ? '–' : us.toFixed(1));
  console.log(`µs of main-thread samples per acknowledged move, by ${by}, inside each run's measured window`);
  console.log(`| ${by} | ${columns.map((column) => column.title).join(' | ')} |`);
  console.log(`| --- | ${columns.map(() => '---').join(' | ')} |`);
  console.log(`| **busy, all** | ${columns.map((column) => `**${cell(column.busy)}**`).join(' | ')} |`);
  console.log(`| writev (wall time: waits for the core included) | ${columns.map((column) => cell(column.writev)).join(' | ')} |`);
  for (const key of keys.slice(0, Number(values.top))) console.log(`| ${key} | ${columns.map((column) => cell(column.perMove.get(key))).join(' | ')} |`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
