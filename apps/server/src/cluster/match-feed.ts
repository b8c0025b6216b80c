import type { FastifyBaseLogger } from 'fastify';
import { packEnvelope, unpackEnvelope, type MatchEventEnvelope, type WireEnvelope } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { PeriodicTask } from '../periodic-task.js';
import { roomChannel, type GameServer } from '../realtime/game-server.js';
import type { ProcessChannel } from '../redis-adapter.js';

/** What goes between the processes: a room's committed events, moves packed as on the wire. */
type FeedMessage = [roomCode: string, envelopes: WireEnvelope[]];

/** What this process has handed to its own sockets of one match, and what waits for its turn. */
interface Delivered {
  code: string;
  /** Every version up to this one. */
  upTo: number;
  /**
   * Versions past a hole, held until it fills (events of two processes may
   * cross on their way here): the sockets get every match's versions in order.
   */
  held: Map<number, MatchEventEnvelope>;
  /**
   * A rematch's match whose `rematch` event, in this earlier match, is still
   * held: its events wait for that one, since a client follows the new match
   * only once told of it.
   */
  after?: string;
  /** A version the database had and we had not, at the previous check: missing if still so now. */
  behind?: number;
  /**
   * Set when the match was first seen here by an event rather than by a
   * socket being given it (sockets are joining): `upTo` is then a guess,
   * which the first socket's snapshot replaces (see `watching`).
   */
  guessed?: boolean;
}

/**
 * How committed match events reach sockets, on one process or several.
 *
 * Local sockets first, so a mover's own event always precedes its
 * acknowledgement (docs/protocol.md); then the other processes through the
 * Redis adapter, without waiting for Redis, whose outage must not hold up
 * moves. Each process hands its sockets every match's events once each and
 * in version order, whichever way they came. When a change committed here
 * follows one whose message has not reached this process yet (both players
 * chose a hand, or asked for a rematch, at once on two processes), the
 * missing events are read from the database before the change is answered:
 * a read only that crossing costs, never a move decided from what this
 * process had delivered. Since the committing process may die before its
 * message leaves, delivery does not depend on it either: every process
 * checks, once per `repairMs` and in one query for all, the versions of the
 * matches its sockets watch, and sends its sockets from `match_event` what is
 * still missing a check later.
 */
export class MatchFeed {
  private readonly delivered = new Map<string, Delivered>();
  private readonly checks: PeriodicTask | undefined;
  private heard: ((envelopes: MatchEventEnvelope[]) => void) | undefined;

  constructor(
    private readonly io: GameServer,
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    /** Set when other processes share the match rooms (through Redis). */
    private readonly channel: ProcessChannel | undefined,
    repairMs: number,
  ) {
    if (!channel) return;
    channel.onMessage((message) => {
      const [code, wire] = JSON.parse(message) as FeedMessage;
      const envelopes = wire.map(unpackEnvelope);
      this.deliver(code, envelopes);
      this.heard?.(envelopes);
    });
    this.checks = new PeriodicTask(() => this.repair(), repairMs);
  }

  start(): void {
    this.checks?.start();
  }

  /** Told of the events other processes committed, as they arrive through Redis. */
  onRemoteEvents(listener: (envelopes: MatchEventEnvelope[]) => void): void {
    this.heard = listener;
  }

  stop(): Promise<void> {
    return this.checks?.stop() ?? Promise.resolve();
  }

  /**
   * A socket here, already in the room, was given the match up to `version`
   * (a snapshot, or what a sync returned). The first one tells where delivery
   * here starts: what came before, it has; what comes after, it needs, even
   * if it is still on its way through Redis. When the match was seen here
   * before any socket had it, the sockets are all arriving now and have at
   * least this much, so this replaces the guess.
   */
  watching(code: string, matchId: string, version: number): void {
    if (!this.channel) return;
    const seen = this.delivered.get(matchId);
    if (!seen) {
      this.delivered.set(matchId, { code, upTo: version, held: new Map() });
      return;
    }
    if (!seen.guessed) return;
    seen.guessed = undefined;
    seen.upTo = Math.max(seen.upTo, version);
    for (const held of seen.held.keys()) if (held <= seen.upTo) seen.held.delete(held);
    this.flush(matchId);
  }

  readonly publish = async (code: string, envelopes: MatchEventEnvelope[]): Promise<void> => {
    if (!this.channel) {
      for (const envelope of envelopes) this.io.to(roomChannel(code)).emit('match:event', packEnvelope(envelope));
      return;
    }
    this.deliver(code, envelopes);
    // Fire and forget: a message that never leaves is repaired by the other processes' checks. Moves go packed, as
    // to clients: a move's message through Redis is 140 bytes instead of 290, less for every process to decode.
    const message: FeedMessage = [code, envelopes.map(packEnvelope)];
    this.channel.publish(JSON.stringify(message));
    // What was committed here is answered once the sockets here have it, and so whatever it follows.
    for (const envelope of envelopes) {
      if (this.delivered.get(envelope.matchId)?.held.get(envelope.version) === envelope) await this.fill(envelope.matchId);
    }
  };

  private deliver(code: string, envelopes: MatchEventEnvelope[]): void {
    // Every process hears every match; only those with sockets in the room keep track (a later socket starts from a snapshot).
    if (!this.io.of('/').adapter.rooms.has(roomChannel(code))) return;
    const touched = new Set<string>();
    for (const envelope of envelopes) {
      const seen = this.seen(code, envelope);
      if (envelope.version <= seen.upTo || seen.held.has(envelope.version)) continue;
      seen.held.set(envelope.version, envelope);
      touched.add(envelope.matchId);
      const { event } = envelope;
      // The sockets here have none of the new match: all its events are to come, after this one. Left to first
      // sight, its first event committed here (the second hand, say) would pass for the start and its first from
      // another process, still on its way, for one they had.
      if (event.type === 'rematch') {
        const next = this.delivered.get(event.matchId);
        if (!next) this.delivered.set(event.matchId, { code, upTo: 0, held: new Map(), after: envelope.matchId });
        else if (next.upTo === 0) next.after = envelope.matchId;
      }
    }
    for (const matchId of touched) this.flush(matchId);
  }

  private seen(code: string, { matchId, version }: MatchEventEnvelope): Delivered {
    let seen = this.delivered.get(matchId);
    if (!seen) {
      // Before any socket here was given the match (one is joining): a guess, until its snapshot says.
      seen = { code, upTo: version - 1, held: new Map(), guessed: true };
      this.delivered.set(matchId, seen);
    }
    return seen;
  }

  /** Hands the sockets every held event that now follows what they have. */
  private flush(matchId: string): void {
    const seen = this.delivered.get(matchId);
    if (!seen || seen.after) return;
    const room = this.io.local.to(roomChannel(seen.code));
    for (let next = seen.held.get(seen.upTo + 1); next; next = seen.held.get(seen.upTo + 1)) {
      seen.held.delete(next.version);
      seen.upTo = next.version;
      room.emit('match:event', packEnvelope(next));
      const { event } = next;
      if (event.type !== 'rematch') continue;
      const following = this.delivered.get(event.matchId);
      if (following?.after !== matchId) continue;
      following.after = undefined;
      this.flush(event.matchId);
    }
  }

  /** Reads from the database the events the held ones of a match wait for (and those of the match it follows), and hands them on. */
  private async fill(matchId: string): Promise<void> {
    const seen = this.delivered.get(matchId);
    if (!seen) return;
    if (seen.after) await this.fill(seen.after);
    const lowest = Math.min(...seen.held.keys());
    if (lowest === Infinity || lowest <= seen.upTo + 1) return;
    try {
      this.deliver(seen.code, await this.eventsOf(matchId, seen.upTo, lowest));
    } catch (error) {
      // Then the check delivers them, a second later, and the change is answered before its event.
      this.log.warn({ err: error, matchId }, 'reading the match events a change follows failed');
    }
  }

  private async eventsOf(matchId: string, after: number, before?: number): Promise<MatchEventEnvelope[]> {
    const rows = await this.db.prisma.matchEvent.findMany({
      where: { matchId, version: before === undefined ? { gt: after } : { gt: after, lt: before } },
      orderBy: { version: 'asc' },
      select: { payload: true },
    });
    return rows.map((row) => row.payload as unknown as MatchEventEnvelope);
  }

  private async repair(): Promise<void> {
    try {
      const rooms = this.io.of('/').adapter.rooms;
      for (const [matchId, seen] of this.delivered) if (!rooms.has(roomChannel(seen.code))) this.delivered.delete(matchId);
      const codes = [...rooms.keys()].filter((room) => room.startsWith('room:')).map((room) => room.slice('room:'.length));
      if (!codes.length) return;
      const known = [...this.delivered.keys()];
      // The current match of every watched room, and the earlier ones still followed here (a rematch's first events);
      // a room's earlier match first, so that a lost `rematch` event goes out before its new match's events.
      const rows = await this.db.prisma.$queryRaw<Array<{ id: string; code: string; version: number }>>`
        SELECT m.id::text AS id, r.code, m.version FROM room r JOIN match m ON m.room_id = r.id
        WHERE r.code = ANY(${codes}::text[])
          AND (m.id = ANY(${known}::uuid[]) OR m.number = (SELECT max(n.number) FROM match n WHERE n.room_id = r.id))
        ORDER BY r.code, m.number`;
      // Rooms where sockets here were given a match (by a snapshot, a sync or a rematch event), not only joining.
      const followed = new Set([...this.delivered.values()].filter((seen) => !seen.guessed).map((seen) => seen.code));
      for (const row of rows) {
        const seen = this.delivered.get(row.id);
        if (!seen) {
          // No socket here was given this match. Where the sockets follow an earlier match of the room, a rematch
          // whose events have not come yet: they have none of it, missing if still so at the next check. Elsewhere
          // they are all joining right now and their snapshot says where they start: counted from nothing, a join
          // that spans two checks (a busy machine) would be sent the whole match again.
          if (row.version > 0 && followed.has(row.code)) this.delivered.set(row.id, { code: row.code, upTo: 0, held: new Map(), behind: row.version });
          continue;
        }
        if (row.version <= seen.upTo) {
          seen.behind = undefined;
          continue;
        }
        // Still short of what the database had a check ago: that message is lost, not late.
        if (seen.behind !== undefined && seen.behind > seen.upTo) await this.resend(row.code, row.id, seen.upTo);
        seen.behind = row.version;
      }
    } catch (error) {
      this.log.warn({ err: error }, 'checking delivered match versions failed');
    }
  }

  private async resend(code: string, matchId: string, after: number): Promise<void> {
    const envelopes = await this.eventsOf(matchId, after);
    this.log.warn({ matchId, roomCode: code, after, events: envelopes.length }, 'delivering match events whose message was lost');
    this.deliver(code, envelopes);
  }
}
