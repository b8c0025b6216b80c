import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = path.dirname(fileURLToPath(import.meta.url));

/** The server's own modules and the relative imports of each (types included: a cycle of types is a cycle of concepts). */
function importGraph(): Map<string, string[]> {
  const files = (readdirSync(srcDir, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('generated'))
    .map((file) => file.split(path.sep).join('/'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.join(srcDir, file), 'utf8');
    const targets = [...text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)].map((match) => path.posix.normalize(path.posix.join(path.posix.dirname(file), `${match[1]}.ts`)));
    graph.set(file, targets.filter((target) => files.includes(target)));
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

/**
 * The server's layers, lowest first. A module imports from its own layer or
 * the ones below, never from one above: what two concerns both need goes
 * below both. Every module is in exactly one layer, so a new folder has to
 * be placed here.
 */
const layers: { name: string; holds: string[] }[] = [
  { name: 'foundation', holds: ['db/', 'config.ts', 'logger.ts', 'errors.ts', 'periodic-task.ts', 'redis-client.ts', 'redis-outage.ts', 'redis-names.ts', 'heap-sizing.ts', 'wasm-tiers.ts'] },
  { name: 'shared parts', holds: ['limits/', 'rooms/', 'ratings/', 'metrics/', 'realtime/', 'redis-adapter.ts'] },
  { name: 'the match as stored, and players', holds: ['match-records/', 'players/'] },
  { name: 'what keeps a process current', holds: ['live/'] },
  { name: 'the referee', holds: ['matches/'] },
  { name: 'around the referee', holds: ['presence/', 'matchmaking/', 'cluster/', 'cleanup/', 'bots/', 'analysis/', 'social/', 'arenas/', 'puzzles/', 'data-export/'] },
  { name: 'edges', holds: ['http/', 'socket/'] },
  { name: 'composition', holds: ['app.ts', 'main.ts', 'testing/'] },
];

const holds = (place: string, file: string) => (place.endsWith('/') ? file.startsWith(place) : file === place);

function layerOf(file: string): number {
  const found = layers.findIndex((layer) => layer.holds.some((place) => holds(place, file)));
  if (found === -1) throw new Error(`${file} is in no layer`);
  return found;
}

/** Every import from a module to one in a higher layer, as "from → to (layer → layer)". */
function againstTheLayers(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([file, targets]) =>
    targets.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${file} → ${target} (${layers[layerOf(file)]!.name} → ${layers[layerOf(target)]!.name})`),
  );
}

describe('module layout', () => {
  it('reads the imports it checks', () => {
    expect(importGraph().get('app.ts')).toContain('realtime/game-server.ts');
  });

  it('has no import cycle among the server modules', () => {
    expect(cycles(importGraph())).toEqual([]);
  });

  it('places every module in one layer', () => {
    for (const file of importGraph().keys()) expect(layers.filter((layer) => layer.holds.some((place) => holds(place, file))), file).toHaveLength(1);
  });

  it('has no import against the layers', () => {
    expect(againstTheLayers(importGraph())).toEqual([]);
  });

  it('would refuse an import against the layers', () => {
    expect(againstTheLayers(new Map([['ratings/rating-service.ts', ['matches/match-service.ts']]]))).toEqual(['ratings/rating-service.ts → matches/match-service.ts (shared parts → the referee)']);
  });
});
