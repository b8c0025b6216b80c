// Puzzles as stored: the engine's puzzle in, the rows out. The same
// position under the same rules is one puzzle however often it is found.

import { initialPuzzleRating, type Puzzle } from '@oanquan/engine';
import { decodePosition, decodeRules, encodePosition, encodeRules, type Move, type Position, type RuleOptions } from '@oanquan/rules';
import type { Database } from '../db/database.js';

export interface StoredPuzzle {
  id: string;
  rules: RuleOptions;
  position: Position;
  line: Move[];
  themes: string[];
  rating: number;
  deviation: number;
  volatility: number;
  attempts: number;
  solved: number;
}

export type PuzzleSource = { kind: 'self-play' } | { kind: 'game'; matchId: string };

/** A first deviation below Glicko-2's 350: the engine's guess at the difficulty is worth something. */
const FIRST_DEVIATION = 250;

/** Stores new puzzles, skipping those already there; answers how many were new. */
export async function storePuzzles(db: Database, puzzles: readonly Puzzle[], source: PuzzleSource): Promise<number> {
  if (puzzles.length === 0) return 0;
  const { count } = await db.prisma.puzzle.createMany({
    data: puzzles.map((puzzle) => ({
      rules: encodeRules(puzzle.rules),
      position: encodePosition(puzzle.position),
      line: puzzle.line.map(({ square, dir }) => ({ square, dir })),
      themes: [...puzzle.themes],
      eval: puzzle.eval,
      gap: puzzle.gap,
      source: source.kind,
      matchId: source.kind === 'game' ? source.matchId : null,
      rating: initialPuzzleRating(puzzle),
      deviation: FIRST_DEVIATION,
    })),
    skipDuplicates: true,
  });
  return count;
}

export function countPuzzles(db: Database): Promise<number> {
  return db.prisma.puzzle.count();
}

interface PuzzleRow {
  id: string;
  rules: string;
  position: string;
  line: unknown;
  themes: string[];
  rating: number;
  deviation: number;
  volatility: number;
  attempts: number;
  solved: number;
}

/** A row as the service uses it; a row that does not decode is a bug in what stored it. */
export function storedPuzzle(row: PuzzleRow): StoredPuzzle {
  const rules = decodeRules(row.rules);
  const position = decodePosition(row.position);
  if (!rules.ok || !position.ok) throw new Error(`puzzle ${row.id} is stored badly`);
  return {
    id: row.id,
    rules: rules.rules,
    position: position.position,
    line: row.line as Move[],
    themes: row.themes,
    rating: row.rating,
    deviation: row.deviation,
    volatility: row.volatility,
    attempts: row.attempts,
    solved: row.solved,
  };
}
