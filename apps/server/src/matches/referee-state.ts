import type { MatchEventEnvelope } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { CurrentMatches } from '../live/current-matches.js';
import { GameCache } from '../live/game-cache.js';
import { SnapshotCache } from '../live/snapshot-cache.js';
import type { MatchRow } from '../match-records/match-store.js';
import { KeyedQueue } from './keyed-queue.js';
import type { OpenerTimes } from './opener.js';

/**
 * Where committed events go: the Socket.IO room of the match's room code.
 * When it returns a promise, the change is only answered once it settles.
 */
export type Publish = (roomCode: string, envelopes: MatchEventEnvelope[]) => void | Promise<void>;

/** Told after every committed change of a match (clock deadlines, presence once play starts, …). */
export interface MatchObserver {
  /** `seatsComputer`: a seat is the computer's (a rematch keeps the same players). */
  changed(match: { id: string; status: string; clockDeadline: Date | null; roomCode: string; seatsComputer: boolean }, envelopes: MatchEventEnvelope[]): void;
}

/**
 * What the commit paths and the reads of one process share: each match's
 * queue, what this process holds in memory of the matches, the outage gate,
 * and what happens once a change is committed.
 */
export class RefereeState {
  readonly queue = new KeyedQueue();
  readonly games = new GameCache();
  readonly snapshots = new SnapshotCache();
  /**
   * On the embedded database this process is the only one changing matches,
   * so it knows a room's current match without asking (its single thread runs
   * the queries too, so a crowd's reads would hold up everything else);
   * processes sharing PostgreSQL ask every time.
   */
  readonly currents: CurrentMatches | undefined;
  /** Set by an outage credit: what to wait for before any deadline is judged (nothing, mostly). */
  settled: () => Promise<void> | undefined = () => undefined;
  private readonly observers: MatchObserver[] = [];

  constructor(
    readonly db: Database,
    private readonly publish: Publish,
    readonly times: OpenerTimes,
    readonly now: () => Date,
  ) {
    this.currents = db.kind === 'pglite' ? new CurrentMatches() : undefined;
  }

  observe(observer: MatchObserver): void {
    this.observers.push(observer);
  }

  /** After a commit, whichever path made it: what is held here moves on, then the events are published and the observers told. */
  async committed(match: MatchRow, envelopes: MatchEventEnvelope[]): Promise<void> {
    if (!envelopes.length) return;
    this.snapshots.forgetBefore(match.id, match.version);
    this.currents?.changed(match.room.code);
    if (match.status === 'ended') this.games.delete(match.id);
    await this.publish(match.room.code, envelopes);
    const seatsComputer = match.player0?.botLevel != null || match.player1?.botLevel != null;
    for (const observer of this.observers) {
      observer.changed({ id: match.id, status: match.status, clockDeadline: match.clockDeadline, roomCode: match.room.code, seatsComputer }, envelopes);
    }
  }
}
