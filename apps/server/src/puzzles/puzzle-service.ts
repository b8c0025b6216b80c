// Puzzles for solvers: the next one near their puzzle rating, the daily one,
// and a try checked move by move against the stored line (the client only
// ever sends its own moves; the opponent's replies and the verdict are the
// server's). An account's first try at a puzzle is rated, for the account
// and for the puzzle; later tries are not, and a guest's never are: guests
// are free and unlimited, so one could fail every puzzle on purpose to push
// its rating and learn its line for someone else's "first try".

import { createHash } from 'node:crypto';
import { ErrorCode, PROVISIONAL_DEVIATION, type PuzzleAttemptResponse, type PuzzleSolver, type PuzzleTheme, type PuzzleView } from '@oanquan/protocol';
import type { Move } from '@oanquan/rules';
import type { Database, Tx } from '../db/database.js';
import { ServiceError } from '../errors.js';
import { ratePuzzleTry } from './puzzle-rating.js';
import { storedPuzzle, type StoredPuzzle } from './puzzle-store.js';

/** The next puzzle is drawn from this many unsolved ones nearest the solver's rating, so two reloads differ. */
const NEAREST = 12;
const DEFAULT_RATING = 1500;

const COLUMNS = 'id, rules, position, line, themes, rating, deviation, volatility, attempts, solved';

/** Who asks: an account's tries are rated, a guest's are not. */
export interface Solver {
  id: string;
  account: boolean;
}

export class PuzzleService {
  constructor(
    private readonly db: Database,
    private readonly random: () => number = Math.random,
  ) {}

  /** A puzzle near the solver's rating that they have not tried; any near it once they have tried them all. */
  async next(asker: Solver | null): Promise<PuzzleView> {
    const solver = asker === null ? null : await this.solver(asker.id);
    const rating = solver?.rating ?? DEFAULT_RATING;
    let rows = await this.nearest(rating, asker?.id ?? null);
    if (rows.length === 0 && asker !== null) rows = await this.nearest(rating, null);
    if (rows.length === 0) throw noPuzzle();
    const puzzle = rows[Math.floor(this.random() * rows.length)]!;
    return this.view(puzzle, asker, solver, null);
  }

  async byId(id: string, asker: Solver | null): Promise<PuzzleView> {
    const puzzle = await this.find(id);
    return this.view(puzzle, asker, asker === null ? null : await this.solver(asker.id), null);
  }

  /** The puzzle of the UTC day, chosen once and stored so every process shows the same; null while the site has none. */
  async daily(asker: Solver | null, now = new Date()): Promise<PuzzleView | null> {
    const day = now.toISOString().slice(0, 10);
    const date = new Date(`${day}T00:00:00Z`);
    let chosen = await this.db.prisma.dailyPuzzle.findUnique({ where: { day: date } });
    if (!chosen) {
      const puzzleId = await this.dailyChoice(day);
      if (puzzleId === null) return null;
      await this.db.prisma.dailyPuzzle.createMany({ data: [{ day: date, puzzleId }], skipDuplicates: true });
      chosen = await this.db.prisma.dailyPuzzle.findUnique({ where: { day: date } });
      if (!chosen) throw noPuzzle();
    }
    const puzzle = await this.find(chosen.puzzleId);
    return this.view(puzzle, asker, asker === null ? null : await this.solver(asker.id), day);
  }

  /**
   * Checks the solver's moves so far against the line: a wrong one fails
   * the puzzle, a right one is answered with the opponent's reply until the
   * last, which solves it. The verdict is rated on an account's first try.
   * Either verdict shows the whole line: the try it ends is already
   * recorded, and a solver who failed could walk the line anyway by trying
   * again (unrated) move by move.
   */
  async attempt(asker: Solver, id: string, moves: readonly Move[]): Promise<PuzzleAttemptResponse> {
    const puzzle = await this.find(id);
    const solverMoves = (puzzle.line.length + 1) / 2;
    if (moves.length > solverMoves) throw new ServiceError(ErrorCode.BadRequest, `This puzzle takes ${solverMoves} moves`);
    const wrong = moves.findIndex((move, i) => !sameMove(move, puzzle.line[2 * i]!));
    if (wrong === -1 && moves.length < solverMoves) return { status: 'continue', reply: puzzle.line[2 * moves.length - 1]! };
    const solved = wrong === -1;
    const change = asker.account ? await this.rate(asker.id, id, solved) : null;
    return {
      status: solved ? 'solved' : 'failed',
      line: puzzle.line,
      solver: change && {
        before: change.solver.before.rating,
        after: change.solver.after.rating,
        provisionalBefore: provisional(change.solver.before),
        provisionalAfter: provisional(change.solver.after),
      },
      puzzle: change && { before: change.puzzle.before.rating, after: change.puzzle.after.rating },
      // An unrated try leaves the counts as they were read; a rated one returns them with itself counted.
      attempts: change?.counts.attempts ?? puzzle.attempts,
      solved: change?.counts.solved ?? puzzle.solved,
    };
  }

  /**
   * Rates a first try, in one transaction with both rows locked; null when the solver tried this puzzle before.
   * The solver's row is made by one statement that waits on a concurrent maker instead of failing (Prisma's
   * upsert reads, then inserts: a new solver's parallel first moves collided on the key).
   */
  private async rate(playerId: string, puzzleId: string, solved: boolean) {
    return this.db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO puzzle_solver (player_id) VALUES (${playerId}::uuid) ON CONFLICT (player_id) DO NOTHING`;
      // The solver's row first, then the puzzle's: every try takes them in this order, so two never wait on each other.
      const [solver] = await tx.$queryRawUnsafe<Glicko[]>('SELECT rating, deviation, volatility FROM puzzle_solver WHERE player_id = $1::uuid FOR UPDATE', playerId);
      const [puzzle] = await tx.$queryRawUnsafe<Glicko[]>('SELECT rating, deviation, volatility FROM puzzle WHERE id = $1::uuid FOR UPDATE', puzzleId);
      if (!solver || !puzzle) throw noPuzzle();
      if (await tried(tx, puzzleId, playerId)) return null;
      const after = ratePuzzleTry({ solver, puzzle }, solved);
      const counted = { attempts: { increment: 1 }, solved: { increment: solved ? 1 : 0 } };
      await tx.puzzleAttempt.create({ data: { puzzleId, playerId, solved, ratingBefore: solver.rating, ratingAfter: after.solver.rating } });
      await tx.puzzleSolver.update({ where: { playerId }, data: { ...after.solver, ...counted, updatedAt: new Date() } });
      const counts = await tx.puzzle.update({ where: { id: puzzleId }, data: { ...after.puzzle, ...counted }, select: { attempts: true, solved: true } });
      return { solver: { before: solver, after: after.solver }, puzzle: { before: puzzle, after: after.puzzle }, counts };
    });
  }

  private async solver(playerId: string): Promise<PuzzleSolver | null> {
    const row = await this.db.prisma.puzzleSolver.findUnique({ where: { playerId }, select: { rating: true, deviation: true, attempts: true, solved: true } });
    return row && { ...row, provisional: provisional(row) };
  }

  private async nearest(rating: number, untriedBy: string | null): Promise<StoredPuzzle[]> {
    const rows =
      untriedBy === null
        ? await this.db.prisma.$queryRawUnsafe<Row[]>(`SELECT ${COLUMNS} FROM puzzle ORDER BY abs(rating - $1) LIMIT ${NEAREST}`, rating)
        : await this.db.prisma.$queryRawUnsafe<Row[]>(
            `SELECT ${COLUMNS} FROM puzzle p WHERE NOT EXISTS (SELECT 1 FROM puzzle_attempt a WHERE a.puzzle_id = p.id AND a.player_id = $2::uuid)
             ORDER BY abs(rating - $1) LIMIT ${NEAREST}`,
            rating,
            untriedBy,
          );
    return rows.map(storedPuzzle);
  }

  private async find(id: string): Promise<StoredPuzzle> {
    const row = await this.db.prisma.puzzle.findUnique({ where: { id } });
    if (!row) throw noPuzzle();
    return storedPuzzle(row);
  }

  /** A puzzle for the day, the same on every node: by a hash of the day among those of middling rating, else among all. */
  private async dailyChoice(day: string): Promise<string | null> {
    const middling = { rating: { gte: 1200, lte: 1800 } };
    const where = (await this.db.prisma.puzzle.count({ where: middling })) > 0 ? middling : {};
    const count = await this.db.prisma.puzzle.count({ where });
    if (count === 0) return null;
    const skip = createHash('sha256').update(day).digest().readUInt32BE(0) % count;
    const [row] = await this.db.prisma.puzzle.findMany({ where, orderBy: { id: 'asc' }, skip, take: 1, select: { id: true } });
    return row!.id;
  }

  private async view(puzzle: StoredPuzzle, asker: Solver | null, solver: PuzzleSolver | null, day: string | null): Promise<PuzzleView> {
    const triedIt = asker !== null && (await tried(this.db.prisma, puzzle.id, asker.id));
    return {
      id: puzzle.id,
      rules: puzzle.rules,
      position: puzzle.position,
      themes: puzzle.themes as PuzzleTheme[],
      rating: Math.round(puzzle.rating),
      solverMoves: (puzzle.line.length + 1) / 2,
      attempts: puzzle.attempts,
      solved: puzzle.solved,
      day,
      solver,
      tried: triedIt,
      rated: asker !== null && asker.account && !triedIt,
    };
  }
}

interface Glicko {
  rating: number;
  deviation: number;
  volatility: number;
}

type Row = Parameters<typeof storedPuzzle>[0];

async function tried(client: Tx | Database['prisma'], puzzleId: string, playerId: string): Promise<boolean> {
  return (await client.puzzleAttempt.count({ where: { puzzleId, playerId } })) > 0;
}

/** As for game ratings: a deviation this wide says little yet. */
function provisional({ deviation }: Pick<Glicko, 'deviation'>): boolean {
  return deviation > PROVISIONAL_DEVIATION;
}

function sameMove(a: Move, b: Move): boolean {
  return a.square === b.square && a.dir === b.dir;
}

function noPuzzle(): ServiceError {
  return new ServiceError(ErrorCode.PuzzleNotFound, 'No such puzzle', 404);
}
