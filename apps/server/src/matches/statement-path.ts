import { randomUUID } from 'node:crypto';
import type { Player } from '@oanquan/rules';
import type { ClientPayload, Hand, MatchEventEnvelope, PublicPlayer } from '@oanquan/protocol';
import { caughtUp } from '../live/live-catch-up.js';
import { GameCache, type LiveGame } from '../live/game-cache.js';
import { readMatchRow } from '../match-records/match-row.js';
import { envelopesOf, rulesOf, seatOf, type MatchRow } from '../match-records/match-store.js';
import { unlessRefused } from './decision.js';
import { MoveCommits, startedLater } from './move-commit.js';
import { decideMove } from './move-decision.js';
import { commitHand } from './opener-commit.js';
import { decideHand } from './opener.js';
import type { RefereeState } from './referee-state.js';
import { commitRematch } from './rematch-commit.js';
import { decideRematch } from './rematch.js';
import { stateOf, type MoveOutcome } from './transaction-path.js';

/**
 * The hot way to store a decision: decided against the newest match row this
 * process holds (or reads in one statement, outside any transaction) and
 * committed in one statement whose compare-and-set on the version tells
 * whether that row was still the match's. Each answers undefined whenever
 * that cannot tell (a refusal the row read might not confirm, a race lost
 * twice, something only the transaction does): the transaction path then
 * decides from the database. The decisions are the transaction path's own.
 */
export class StatementPath {
  private readonly moveCommits: MoveCommits;

  constructor(private readonly state: RefereeState) {
    this.moveCommits = new MoveCommits(state.db.sql);
  }

  private get sql() {
    return this.state.db.sql;
  }

  /**
   * A hand of the opener. When no row is held, or the one held might be
   * behind (a refusal, or another change got there first), the row is read
   * in one statement and the hand decided again: with players on two
   * processes the second hand of every round lands where the first is not
   * held. A lapsed round is the transaction's.
   */
  async hand(player: PublicPlayer, matchId: string, choice: Hand): Promise<{ match: MatchRow; envelopes: MatchEventEnvelope[] } | undefined> {
    let tried = this.state.snapshots.latest(matchId)?.match;
    const hot = tried && (await this.handOn(tried, player, choice));
    if (hot) return hot;
    // Twice: after a tie both hands of the next round come at once, and the one whose process held the round before
    // the tie reads a row that the other hand, committed on the other process, may change before its own commit.
    for (let reads = 0; reads < 2; reads++) {
      const fresh = await readMatchRow(this.sql, matchId);
      // The same row refused it: a refusal for the transaction to confirm.
      if (!fresh || fresh.version === tried?.version) return undefined;
      const done = await this.handOn(fresh, player, choice);
      if (done) return done;
      tried = fresh;
    }
    return undefined;
  }

  /** One try of the hand against the row `match`, committed if that row is still the match's. */
  private async handOn(match: MatchRow, player: PublicPlayer, choice: Hand): Promise<{ match: MatchRow; envelopes: MatchEventEnvelope[] } | undefined> {
    const { games, snapshots } = this.state;
    const seat = seatOf(match, player.id);
    if (seat === null || match.status !== 'opener') return undefined;
    const now = this.state.now();
    const decided = unlessRefused(() => decideHand(match, seat, choice, now, this.state.times));
    if (!decided || decided === 'lapsed') return undefined;
    const { next } = decided;
    const envelopes = envelopesOf(match, decided.events, now);
    if (!(await commitHand(this.sql, match.version, next, decided.round, envelopes, now))) {
      snapshots.delete(match.id);
      return undefined;
    }
    if (next.status === 'playing') games.set(next, stateOf(next, []));
    // Held before the queue lets the other hand in, which is decided from it.
    snapshots.set(next, []);
    return { match: next, envelopes };
  }

  /**
   * A move, decided against the cached match of the version this process
   * last saw. When the cache may be behind (a refusal that a fresher row
   * might not confirm, or another process moved first), it is brought up to
   * date in one more statement and the move is decided again. A move id seen
   * before and an ending to be rated are the transaction's.
   */
  async move(player: PublicPlayer, payload: ClientPayload<'move'>, receivedAt: Date): Promise<MoveOutcome | undefined> {
    const { games } = this.state;
    const cached = games.get(payload.matchId) ?? (await this.liveFromRows(payload.matchId));
    if (!cached) return undefined;
    const first = await this.moveOn(cached, player, payload, receivedAt);
    if (first !== 'stale') return first === 'cold' ? undefined : first;
    const live = await caughtUp(this.sql, cached);
    if (!live) {
      games.delete(payload.matchId);
      return undefined;
    }
    games.set(live.match, live.state);
    const second = await this.moveOn(live, player, payload, receivedAt);
    return typeof second === 'string' ? undefined : second;
  }

  /**
   * A match in play this process does not hold (it started on another
   * process, or before a restart), read in two statements outside any
   * transaction: the compare-and-set of the commit still tells whether it
   * was current. Undefined when it is not in play.
   */
  private async liveFromRows(matchId: string): Promise<LiveGame | undefined> {
    const match = await readMatchRow(this.sql, matchId);
    if (match?.status !== 'playing' || match.first === null) return undefined;
    const live = await caughtUp(this.sql, { match, state: GameCache.rebuild(rulesOf(match), match.first as Player, []) });
    if (live) this.state.games.set(live.match, live.state);
    return live;
  }

  /** One try of the move against `live`: committed, or the cache may be `stale`, or only the transaction can tell (`cold`). */
  private async moveOn(live: LiveGame, player: PublicPlayer, payload: ClientPayload<'move'>, receivedAt: Date): Promise<MoveOutcome | 'stale' | 'cold'> {
    const decided = unlessRefused(() => decideMove(live.match, live.state, player, payload, receivedAt, this.state.now()));
    if (!decided) return 'stale';
    if (decided.rated) return 'cold';
    const { record, events, now } = decided;
    const sent = envelopesOf(live.match, events, now);
    const committed = await this.moveCommits.commit(live.match.version, decided.next, record, sent, now);
    if (committed === 'conflict') return 'stale';
    if (committed === 'duplicate') return 'cold';
    const { next, envelopes } = startedLater(decided.next, sent, committed.lateMs);
    this.state.games.set(next, decided.after);
    return { version: next.version, envelopes, match: next };
  }

  /**
   * A rematch, read and committed in one statement each, holding nothing in
   * between. When another change got there first it is read and decided once
   * more: both players asking at once from two processes is the usual case,
   * and the second then accepts the first's offer. A rated rematch is the
   * transaction's.
   */
  async rematch(player: PublicPlayer, matchId: string, tries = 2): Promise<{ after: MatchRow; created: MatchRow | null; envelopes: MatchEventEnvelope[] } | undefined> {
    const match = await readMatchRow(this.sql, matchId);
    const seat = match && seatOf(match, player.id);
    if (!match || seat === null || seat === undefined) return undefined;
    const now = this.state.now();
    const decided = unlessRefused(() => decideRematch(match, seat, randomUUID(), now));
    if (decided === undefined) return undefined;
    if (decided === null) return { after: match, created: null, envelopes: [] };
    // Whether a rated match's rematch is rated too is the pair's limit's to say, which the transaction reads.
    if (decided.created?.rated) return undefined;
    const envelopes = envelopesOf(match, decided.events, now);
    if (!(await commitRematch(this.sql, match.version, decided.after, decided.created, envelopes, now))) return tries > 1 ? this.rematch(player, matchId, tries - 1) : undefined;
    return { after: decided.after, created: decided.created, envelopes };
  }
}
