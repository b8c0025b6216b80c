export interface CurrentMatch {
  id: string;
  version: number;
  status: string;
  player0Id: string | null;
  player1Id: string | null;
}

/**
 * The newest match of each room, remembered between changes. Only sound
 * where this process makes every change to every match (the embedded
 * database has no other user): a change forgets the room, and a read that
 * was under way while any change committed is not remembered.
 */
export class CurrentMatches {
  private readonly rooms = new Map<string, CurrentMatch>();
  private changes = 0;

  constructor(private readonly capacity = 1000) {}

  get(code: string): CurrentMatch | undefined {
    return this.rooms.get(code);
  }

  /** Call before reading; pass what it returns to `remember`. */
  mark(): number {
    return this.changes;
  }

  remember(code: string, current: CurrentMatch, mark: number): void {
    if (mark !== this.changes) return;
    this.rooms.delete(code);
    this.rooms.set(code, current);
    if (this.rooms.size > this.capacity) this.rooms.delete(this.rooms.keys().next().value!);
  }

  changed(code: string): void {
    this.changes++;
    this.rooms.delete(code);
  }
}
