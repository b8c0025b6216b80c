import { ErrorCode, limits, type MatchEventEnvelope, type MatchSnapshot } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { CurrentMatch } from '../live/current-matches.js';
import { missedEvents } from '../live/missed-events.js';
import { SharedRead } from '../live/shared-read.js';
import { loadMatch, loadMoves, snapshotOf } from '../match-records/match-store.js';
import type { RefereeState } from './referee-state.js';

/**
 * What is read of a match without changing it: a room's current match, a
 * snapshot, the events a client missed, the seats. None of these waits for a
 * change in progress or takes a lock, so strangers watching cannot hold up
 * the players.
 */
export class MatchReads {
  private readonly currentReads = new SharedRead((code) =>
    this.state.db.prisma.match.findFirst({
      where: { room: { code } },
      orderBy: { number: 'desc' },
      select: { id: true, version: true, status: true, player0Id: true, player1Id: true },
    }),
  );
  private readonly snapshotReads = new SharedRead((matchId) => {
    const { db } = this.state;
    const options = db.kind === 'postgresql' ? { isolationLevel: 'RepeatableRead' as const } : {};
    return db.prisma.$transaction(async (tx) => ({ match: await loadMatch(tx, matchId), moves: await loadMoves(tx, matchId) }), options);
  });

  constructor(private readonly state: RefereeState) {}

  /** The room's newest match, in one indexed read shared by everyone asking at once. */
  async currentMatch(code: string): Promise<CurrentMatch> {
    const { currents } = this.state;
    const known = currents?.get(code);
    if (known) return known;
    const mark = currents?.mark();
    const current = await this.currentReads.read(code);
    if (!current) throw new ServiceError(ErrorCode.RoomNotFound, `No room ${code}`, 404);
    if (mark !== undefined) currents?.remember(code, current, mark);
    return current;
  }

  /** The room of a match and who holds its seats (seats never change once play starts, when a live match is known here). */
  async seatsOf(matchId: string): Promise<{ code: string; player0Id: string | null; player1Id: string | null }> {
    const known = this.state.games.get(matchId);
    if (known) return { code: known.match.room.code, player0Id: known.match.player0Id, player1Id: known.match.player1Id };
    const match = await this.state.db.prisma.match.findUnique({ where: { id: matchId }, select: { player0Id: true, player1Id: true, room: { select: { code: true } } } });
    if (!match) throw new ServiceError(ErrorCode.MatchNotFound, 'No such match', 404);
    return { code: match.room.code, player0Id: match.player0Id, player1Id: match.player1Id };
  }

  /**
   * What a client missed since `version`: the events themselves, which it
   * can animate, or a snapshot when the gap is long (a snapshot is then
   * shorter to send and to apply) or the version is one the match never had.
   * The version and the events come in one statement.
   */
  async sync(matchId: string, version: number): Promise<{ events: MatchEventEnvelope[] } | { snapshot: MatchSnapshot }> {
    const missed = await missedEvents(this.state.db.sql, matchId, version, limits.maxSyncEvents);
    if (!missed) throw new ServiceError(ErrorCode.MatchNotFound, 'No such match', 404);
    if (!missed.events) return { snapshot: await this.view(matchId, missed.version) };
    return { events: missed.events };
  }

  /**
   * The snapshot of a match as of `version` (the version the caller has just
   * read) or later: from memory when this process has it, else read in one
   * transaction that takes no lock (repeatable read, so the match, its rounds
   * and its moves agree).
   */
  async view(matchId: string, version: number): Promise<MatchSnapshot> {
    const { snapshots } = this.state;
    await this.state.settled();
    let rows = snapshots.get(matchId, version);
    if (!rows) {
      rows = await this.snapshotReads.read(matchId);
      snapshots.set(rows.match, rows.moves);
    }
    return snapshotOf(rows.match, rows.moves, this.state.now(), this.state.times.openerTimeoutMs);
  }
}
