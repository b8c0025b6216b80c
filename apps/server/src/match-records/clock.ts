import type { Clocks, Seat } from '@oanquan/protocol';

/**
 * The server's chess clock. A row stores each seat's remaining time as of
 * `turnStartedAt`, when the mover's clock started (or starts: after a move
 * it lies a sowing allowance ahead); the mover's time left at any instant
 * follows from that, so nothing ticks in memory.
 */
export interface ClockRow {
  clock0Ms: number | null;
  clock1Ms: number | null;
  turnStartedAt: Date | null;
}

export interface ClockSettings {
  initialMs: number | null;
  incrementMs: number | null;
}

export type ClockUpdate = Pick<ClockRow, 'clock0Ms' | 'clock1Ms' | 'turnStartedAt'> & { clockDeadline: Date | null };

export function isTimed(settings: ClockSettings): settings is { initialMs: number; incrementMs: number | null } {
  return settings.initialMs !== null;
}

/**
 * The clocks are set after the opener but none runs yet: the first move is
 * bounded by its own deadline instead (as on lichess), and its thinking time
 * is not charged. `afterMove` then starts the other clock as usual.
 */
export function startClocks(settings: ClockSettings): ClockUpdate | null {
  if (!isTimed(settings)) return null;
  return { clock0Ms: settings.initialMs, clock1Ms: settings.initialMs, turnStartedAt: null, clockDeadline: null };
}

/**
 * Time left for `seat` at `now`: the running seat's clock has been counting
 * since `turnStartedAt`. Before that instant (a move answered within the
 * sowing allowance) nothing is charged, and nothing credited either.
 */
export function remainingAt(row: ClockRow, seat: Seat, running: Seat | null, now: Date): number {
  const stored = (seat === 0 ? row.clock0Ms : row.clock1Ms) ?? 0;
  if (seat !== running || !row.turnStartedAt) return stored;
  return stored - Math.max(0, now.getTime() - row.turnStartedAt.getTime());
}

/**
 * After `seat` moved: their time less what they used up to `movedAt` (when
 * the server received the move), plus the increment; the other clock starts
 * at `startsAt` (when the move is applied, plus its sowing allowance), so
 * neither player pays for the time the server took in between, nor for
 * watching the stones move. The deadline includes the allowance.
 */
export function afterMove(row: ClockRow, settings: ClockSettings, seat: Seat, movedAt: Date, startsAt: Date = movedAt): { update: ClockUpdate; moverRemainingMs: number } {
  const moverRemainingMs = remainingAt(row, seat, seat, movedAt) + (settings.incrementMs ?? 0);
  const other = (seat === 0 ? row.clock1Ms : row.clock0Ms) ?? 0;
  return {
    moverRemainingMs,
    update: {
      clock0Ms: seat === 0 ? moverRemainingMs : row.clock0Ms,
      clock1Ms: seat === 1 ? moverRemainingMs : row.clock1Ms,
      turnStartedAt: startsAt,
      clockDeadline: new Date(startsAt.getTime() + other),
    },
  };
}

/** Both clocks stopped where they stand at `now` (a running clock never goes below zero). */
export function stopClocks(row: ClockRow, running: Seat | null, now: Date): ClockUpdate {
  return {
    clock0Ms: Math.max(0, remainingAt(row, 0, running, now)),
    clock1Ms: Math.max(0, remainingAt(row, 1, running, now)),
    turnStartedAt: null,
    clockDeadline: null,
  };
}

/**
 * What clients get: both times as of now, whose is running (nobody's before
 * the first move), and, while a sowing allowance lasts, when it starts.
 */
export function clocksOnWire(row: ClockRow, settings: ClockSettings, running: Seat | null, now: Date): Clocks | null {
  if (!isTimed(settings) || row.clock0Ms === null) return null;
  const startsAt = running !== null && row.turnStartedAt && row.turnStartedAt > now ? row.turnStartedAt : null;
  return {
    remainingMs: [Math.max(0, remainingAt(row, 0, running, now)), Math.max(0, remainingAt(row, 1, running, now))],
    running: row.turnStartedAt ? running : null,
    asOf: now.toISOString(),
    ...(startsAt ? { startsAt: startsAt.toISOString() } : {}),
  };
}
