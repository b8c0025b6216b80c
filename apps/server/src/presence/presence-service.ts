import type { FastifyBaseLogger } from 'fastify';
import type { MatchEventEnvelope, Presence, Seat } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { roomChannel, type GameServer } from '../realtime/game-server.js';
import { remainingAt } from '../match-records/clock.js';
import { PeriodicTask } from '../periodic-task.js';
import { KeyedQueue } from '../matches/keyed-queue.js';
import type { MatchObserver } from '../matches/match-service.js';
import { runningSeat, type MatchRow } from '../match-records/match-store.js';
import { roomPresenceRow } from './presence-row.js';
import { LocalPresenceStore, type PresenceStore } from './presence-store.js';
import { TrailingWindow } from './trailing-window.js';

/** A room's presence is announced at most once per this many milliseconds, after the last change. */
export const presenceWindowMs = 250;

/**
 * Who is connected to a room, across every server process. Each process
 * knows its own sockets and shares only those, per room, through the store
 * (Redis with several processes); a refresh writes this process's entry and
 * reads the others', never asking every process for its sockets. Processes
 * that stop beating are swept, and their rooms recomputed. A seated player with no connection is absent
 * from that moment, recorded on the match so any process can judge a claim;
 * after the grace period, or sooner when their clock would run out first,
 * the opponent may claim the win. Refreshes read the match and write only
 * its absence columns, and only when they change: they never wait in the
 * match's queue or take its lock.
 */
export class PresenceService implements MatchObserver {
  /** Refreshes of one room run one at a time, so a slow one never writes over a newer answer. */
  private readonly queue = new KeyedQueue();
  /** A crowd joining and leaving one room is announced once per window, not once per socket. */
  private readonly coalesced = new TrailingWindow(presenceWindowMs, (code) => this.refreshNow(code));
  private stopped = false;
  private readonly beats: PeriodicTask;

  constructor(
    private readonly io: GameServer,
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    readonly graceMs: number,
    private readonly store: PresenceStore = new LocalPresenceStore(),
    heartbeatMs = 5_000,
  ) {
    this.beats = new PeriodicTask(() => this.beat(), heartbeatMs);
  }

  /** Starts this process's heartbeat, and the sweep of processes that stopped beating. */
  start(): void {
    this.beats.start();
  }

  private async beat(): Promise<void> {
    try {
      if (await this.store.heartbeat()) {
        this.log.warn('presence: this process was taken for dead while it stalled; writing its rooms again');
        for (const room of this.io.of('/').adapter.rooms.keys()) if (room.startsWith('room:')) this.refresh(room.slice('room:'.length));
      }
      for (const code of await this.store.orphanedRooms()) this.refresh(code);
    } catch (error) {
      this.log.warn({ err: error }, 'presence heartbeat failed');
    }
  }

  claimableAt = (match: Pick<MatchRow, 'absent0Since' | 'absent1Since' | 'clock0Ms' | 'clock1Ms' | 'turnStartedAt' | 'status' | 'position'>, seat: Seat): Date | null => {
    const since = seat === 0 ? match.absent0Since : match.absent1Since;
    if (!since) return null;
    const grace = since.getTime() + this.graceMs;
    const running = runningSeat(match);
    if (match.clock0Ms === null || running !== seat) return new Date(grace);
    // A clock still in its sowing allowance runs out that much later.
    const counted = Math.max(since.getTime(), match.turnStartedAt?.getTime() ?? 0);
    const runsOut = counted + remainingAt(match, seat, running, since);
    return new Date(Math.min(grace, runsOut));
  };

  /** Once play starts, a player who left during the opener becomes claimable: say so. */
  changed(match: { roomCode: string }, envelopes: MatchEventEnvelope[]): void {
    if (envelopes.some((envelope) => envelope.event.type === 'started')) this.refresh(match.roomCode);
  }

  /** On shutdown this process's sockets all disconnect: that is not the players leaving. */
  stop(): void {
    this.stopped = true;
    this.coalesced.stop();
  }

  /** After `stop` and once nothing else runs: the heartbeat ends (other processes sweep this one's entries) and the store closes. */
  async close(): Promise<void> {
    this.stop();
    await this.beats.stop();
    await this.store.close();
  }

  /** The distinct players of this process's own sockets in a room. */
  private localPlayers(code: string): string[] {
    const namespace = this.io.of('/');
    const ids = new Set<string>();
    for (const socketId of namespace.adapter.rooms.get(roomChannel(code)) ?? []) {
      const id = namespace.sockets.get(socketId)?.data.player?.id;
      if (id) ids.add(id);
    }
    return [...ids];
  }

  /** People in the room other than `seated`, on every process (this process's entry is written as a refresh writes it). */
  async spectators(code: string, seated: readonly string[]): Promise<number> {
    const present = new Set((await this.store.exchange(code, this.localPlayers(code))).flat());
    for (const id of seated) present.delete(id);
    return present.size;
  }

  /** Someone joined or left the room: it is recomputed and announced at the end of the room's window. */
  refresh(code: string): void {
    this.coalesced.request(code);
  }

  /** Recomputes and announces a room's presence at once (a claim judges on it); never throws. */
  refreshNow(code: string): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return this.queue.run(code, () => this.announce(code));
  }

  private async announce(code: string): Promise<void> {
    try {
      const match = await roomPresenceRow(this.db.sql, code);
      if (!match) {
        // A client naming a room that does not exist is its own mistake, not the server's.
        this.log.debug({ code }, 'presence of an unknown room');
        return;
      }
      const present = new Set((await this.store.exchange(code, this.localPlayers(code))).flat());
      // The computer never leaves its seat.
      const computer = [match.computer0, match.computer1];
      const connected = [match.player0Id, match.player1Id].map((id, seat) => id !== null && (present.has(id) || computer[seat]!));
      const now = new Date();
      const absent = [0, 1].map((seat) => {
        const since = seat === 0 ? match.absent0Since : match.absent1Since;
        const seated = (seat === 0 ? match.player0Id : match.player1Id) !== null;
        return connected[seat] || !seated || match.status === 'ended' ? null : (since ?? now);
      });
      if (absent[0]?.getTime() !== match.absent0Since?.getTime() || absent[1]?.getTime() !== match.absent1Since?.getTime()) {
        await this.db.prisma.match.updateMany({
          where: { id: match.id, absent0Since: match.absent0Since, absent1Since: match.absent1Since },
          data: { absent0Since: absent[0] ?? null, absent1Since: absent[1] ?? null },
        });
      }
      const updated = { ...match, absent0Since: absent[0] ?? null, absent1Since: absent[1] ?? null };
      const seated = new Set([match.player0Id, match.player1Id]);
      const presence: Presence = {
        matchId: match.id,
        seats: [0, 1].map((seat) => ({
          connected: connected[seat] ?? false,
          claimableAt: match.status === 'playing' ? (this.claimableAt(updated, seat as Seat)?.toISOString() ?? null) : null,
        })) as Presence['seats'],
        spectators: new Set([...present].filter((id) => id && !seated.has(id))).size,
      };
      this.io.to(roomChannel(code)).emit('presence', presence);
    } catch (error) {
      this.log.warn({ err: error, code }, 'presence refresh failed');
    }
  }
}
