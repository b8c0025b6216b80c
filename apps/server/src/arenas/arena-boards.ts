import { ErrorCode } from '@oanquan/protocol';
import type { Tx } from '../db/database.js';
import { ServiceError } from '../errors.js';
import { ArenaBoard } from './arena-board.js';
import { refreshBoard, type ArenaGameRow, type ArenaRow } from './arena-store.js';

/** Arenas whose boards one process keeps for its readers; the least recently read goes first. */
const BOARDS_KEPT = 32;

interface Kept {
  board: ArenaBoard<ArenaGameRow>;
  /** The arena's row, read with its other rows. */
  arena: ArenaRow | null;
  /** When its rows were last read (this process's monotonic clock), or null to read them at the next read. */
  readAt: number | null;
  /** When the last read of its rows that completed began, whatever came meanwhile. */
  lastStart: number;
  /** Read after the arena finished: nothing changes it any more. */
  final: boolean;
  reading: Promise<void> | null;
  /** Counts the joins and pauses seen here, so that a read of the rows begun before one does not pass for fresh. */
  changes: number;
}

/**
 * The boards this process serves reads from. However many people read an
 * arena, its rows are read at most once per `freshMs` (the director's tick,
 * at which its standings change) and then only what changed since; reads
 * in between are served from memory. Arenas read on this process are at
 * most BOARDS_KEPT, so reading many cannot grow it.
 */
export class ArenaBoards {
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly db: { prisma: Pick<Tx, '$queryRaw'> },
    private readonly freshMs: number,
    /** The clock joins and pauses are written with. */
    private readonly now: () => Date = () => new Date(),
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** An arena and its board, by code (ARENA_NOT_FOUND when there is none). */
  async read(code: string): Promise<{ arena: ArenaRow; board: ArenaBoard<ArenaGameRow> }> {
    let kept = this.kept.get(code);
    if (kept) this.kept.delete(code);
    else kept = { board: new ArenaBoard<ArenaGameRow>(), arena: null, readAt: null, lastStart: -Infinity, final: false, reading: null, changes: 0 };
    this.kept.set(code, kept);
    for (const id of this.kept.keys()) {
      if (this.kept.size <= BOARDS_KEPT) break;
      this.kept.delete(id);
    }
    const entry = kept;
    const calledAt = this.clock();
    // Fresh: read within freshMs, or begun since this call was (with freshMs 0, every call sees what was committed before it).
    // A read waits for at most two reads of the rows, however many joins come meanwhile.
    const fresh = () => entry.final || entry.lastStart >= calledAt || (entry.readAt !== null && this.clock() - entry.readAt < this.freshMs);
    while (!fresh()) {
      // One read of the rows at a time, shared by everyone who asks meanwhile.
      entry.reading ??= this.refresh(entry, code).finally(() => {
        entry.reading = null;
      });
      await entry.reading;
    }
    return { arena: entry.arena!, board: entry.board };
  }

  /**
   * A join or pause here, applied to the board kept (if any) so that it
   * shows at once without reading the rows again; other processes see it at
   * their next read of the rows. A read of the rows that began before it is
   * followed by another at the next read.
   */
  changed(code: string, apply: (board: ArenaBoard<ArenaGameRow>) => void): void {
    const kept = this.kept.get(code);
    if (!kept) return;
    // Counted even while the first read is under way (no arena yet, nothing to apply to): that read may have
    // missed this change, so it must not pass for fresh; the next read brings it.
    kept.changes++;
    if (kept.arena) apply(kept.board);
  }

  private async refresh(kept: Kept, code: string): Promise<void> {
    const startedAt = this.clock();
    const changes = kept.changes;
    try {
      const [arena] = await this.db.prisma.$queryRaw<ArenaRow[]>`
        SELECT id::text AS id, code, name, pool, rules, rated, starts_at AS "startsAt", ends_at AS "endsAt", finished_at AS "finishedAt"
        FROM arena WHERE code = ${code}`;
      if (!arena) throw new ServiceError(ErrorCode.ArenaNotFound, 'No such arena', 404);
      await refreshBoard(this.db.prisma, arena.id, kept.board, this.now());
      kept.arena = arena;
      kept.final = arena.finishedAt !== null;
    } catch (error) {
      // Half applied, or no such arena: made again from the rows at the next read.
      this.kept.delete(code);
      throw error;
    }
    kept.readAt = kept.changes === changes ? startedAt : null;
    kept.lastStart = startedAt;
  }
}
