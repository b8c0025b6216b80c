import type { MatchRow, MoveRow } from '../match-records/match-store.js';

/**
 * The rows a snapshot is made of, per match, as of one version. Spectators
 * joining a busy room all want the same version; serving it from memory keeps
 * their joins off the database. An entry is used only for the version the
 * caller has just read, so a change made by another process is never hidden;
 * the clocks are computed when the snapshot is made, not stored.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, { match: MatchRow; moves: MoveRow[] }>();

  /** Room for every match in its opener at a thousand live games, whose hands are decided from here. */
  constructor(private readonly capacity = 5000) {}

  get(matchId: string, version: number): { match: MatchRow; moves: MoveRow[] } | undefined {
    const entry = this.entries.get(matchId);
    return entry?.match.version === version ? entry : undefined;
  }

  /**
   * The newest rows held, whatever their version: a change decided from them
   * must be committed over that version, which tells whether they were current.
   */
  latest(matchId: string): { match: MatchRow; moves: MoveRow[] } | undefined {
    return this.entries.get(matchId);
  }

  /** Keeps the newest version seen: a slow reader never replaces a newer entry with its older one. */
  set(match: MatchRow, moves: MoveRow[]): void {
    const held = this.entries.get(match.id);
    if (held && held.match.version > match.version) return;
    this.entries.delete(match.id);
    this.entries.set(match.id, { match, moves });
    // Maps iterate in insertion order, so the first key is the least recently stored.
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Drops the entry if it is older than `version`: a change that committed it is held, a newer one kept. */
  forgetBefore(matchId: string, version: number): void {
    const held = this.entries.get(matchId);
    if (held && held.match.version < version) this.entries.delete(matchId);
  }

  delete(matchId: string): void {
    this.entries.delete(matchId);
  }

  clear(): void {
    this.entries.clear();
  }
}
