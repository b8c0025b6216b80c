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

describe('module layout', () => {
  it('reads the imports it checks', () => {
    expect(importGraph().get('app.ts')).toContain('realtime/game-server.ts');
  });

  it('has no import cycle among the server modules', () => {
    expect(cycles(importGraph())).toEqual([]);
  });
});
