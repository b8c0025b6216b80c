import type { Clocks, Seat } from '@oanquan/protocol';

/**
 * The local instant the running clock counts down from, given the offset
 * local − server: `startsAt` while the sowing allowance of the move that
 * gave the turn lasts (the clock stands until then), else `asOf`.
 */
export function countsFrom(clocks: Clocks, offset: number): number {
  return Math.max(Date.parse(clocks.asOf), clocks.startsAt ? Date.parse(clocks.startsAt) : -Infinity) + offset;
}

/** A seat's remaining time at local time `now`, given the offset local − server. */
export function remainingMs(clocks: Clocks, seat: Seat, now: number, offset: number): number {
  const base = clocks.remainingMs[seat];
  if (clocks.running !== seat) return Math.max(0, base);
  return Math.max(0, base - Math.max(0, now - countsFrom(clocks, offset)));
}

/** The local instant the running clock reaches zero, the same deadline as the server's; null when none runs. */
export function runsOutAt(clocks: Clocks, offset: number): number | null {
  return clocks.running === null ? null : countsFrom(clocks, offset) + Math.max(0, clocks.remainingMs[clocks.running]);
}

/** How many of the latest messages the offset is estimated from. */
const OFFSET_SAMPLES = 8;

/**
 * Local clock minus the server's, from the instants the server stamps on
 * what it sends. Each sample is too large by the time the message took to
 * arrive, so the estimate is the smallest of the latest few: the quickest
 * delivery. A message slowed by a busy moment then does not push every
 * countdown late, and a local clock that is set again is followed within a
 * few messages.
 */
export class ClockOffset {
  private recent: number[] = [];

  /** Adds a message stamped `serverInstant` by the server and received at local `receivedAt`; the new estimate. */
  sample(serverInstant: string, receivedAt = Date.now()): number | null {
    const sent = Date.parse(serverInstant);
    if (Number.isFinite(sent)) this.recent = [...this.recent, receivedAt - sent].slice(-OFFSET_SAMPLES);
    return this.recent.length ? Math.min(...this.recent) : null;
  }
}

/** m:ss, with tenths in the last ten seconds; h:mm:ss from an hour. */
export function formatClock(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) {
    const tenths = Math.floor(clamped / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(clamped / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** A duration as m:ss, for waiting times and countdowns. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}
