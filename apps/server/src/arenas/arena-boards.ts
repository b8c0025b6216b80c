import type { Tx } from '../db/database.js';
import { ArenaBoard } from './arena-board.js';
import { refreshBoard, type ArenaGameRow, type ArenaRow } from './arena-store.js';

/** Arenas whose boards one process keeps for its readers; the least recently read goes first. */
const BOARDS_KEPT = 32;

interface Kept {
  board: ArenaBoard<ArenaGameRow>;
  /** When its rows were last read (this process's monotonic clock), or null to read them at the next read. */
  readAt: number | null;
  /** Read after the arena finished: nothing changes it any more. */
  final: boolean;
  reading: Promise<ArenaBoard<ArenaGameRow>> | null;
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
    private readonly clock: () => number = () => performance.now(),
  ) {}

  async read(arena: ArenaRow): Promise<ArenaBoard<ArenaGameRow>> {
    let kept = this.kept.get(arena.id);
    if (kept) this.kept.delete(arena.id);
    else kept = { board: new ArenaBoard<ArenaGameRow>(), readAt: null, final: false, reading: null, changes: 0 };
    this.kept.set(arena.id, kept);
    for (const id of this.kept.keys()) {
      if (this.kept.size <= BOARDS_KEPT) break;
      this.kept.delete(id);
    }
    const entry = kept;
    const calledAt = this.clock();
    // Fresh: read within freshMs, or begun since this call was (with freshMs 0, every call sees what was committed before it).
    const fresh = () => entry.final || (entry.readAt !== null && (entry.readAt >= calledAt || this.clock() - entry.readAt < this.freshMs));
    while (!fresh()) {
      // One read of the rows at a time, shared by everyone who asks meanwhile.
      entry.reading ??= this.refresh(entry, arena).finally(() => {
        entry.reading = null;
      });
      await entry.reading;
    }
    return entry.board;
  }

  /** A join or pause here: the next read sees it rather than waiting out the tick. */
  stale(arenaId: string): void {
    const kept = this.kept.get(arenaId);
    if (!kept) return;
    kept.readAt = null;
    kept.changes++;
  }

  private async refresh(kept: Kept, arena: ArenaRow): Promise<ArenaBoard<ArenaGameRow>> {
    const startedAt = this.clock();
    const changes = kept.changes;
    try {
      await refreshBoard(this.db.prisma, arena.id, kept.board);
    } catch (error) {
      // Half applied: made again from the rows at the next read.
      this.kept.delete(arena.id);
      throw error;
    }
    kept.readAt = kept.changes === changes ? startedAt : null;
    kept.final = arena.finishedAt !== null;
    return kept.board;
  }
}
