/**
 * Where a replay stands: at rest after `ply` moves (`step` null), or partway
 * through move `ply + 1`, showing its frame `step`. A move of n frames has
 * n − 1 such steps: its last frame is the rest after it.
 */
export interface Cursor {
  readonly ply: number;
  readonly step: number | null;
}

/** `stepsOf(ply)`: the number of intermediate steps of move `ply` (1-based); `total`: the number of moves. */
export interface Track {
  readonly total: number;
  stepsOf(ply: number): number;
}

export function nextStone(track: Track, { ply, step }: Cursor): Cursor {
  if (ply >= track.total) return { ply, step: null };
  const steps = track.stepsOf(ply + 1);
  const next = step === null ? 0 : step + 1;
  return next < steps ? { ply, step: next } : { ply: ply + 1, step: null };
}

export function previousStone(track: Track, { ply, step }: Cursor): Cursor {
  if (step !== null) return step > 0 ? { ply, step: step - 1 } : { ply, step: null };
  if (ply === 0) return { ply, step: null };
  const steps = track.stepsOf(ply);
  return steps > 0 ? { ply: ply - 1, step: steps - 1 } : { ply: ply - 1, step: null };
}

export function nextMove(track: Track, { ply }: Cursor): Cursor {
  return { ply: Math.min(track.total, ply + 1), step: null };
}

/** Partway through a move, back to its start; at rest, one move back. */
export function previousMove(_track: Track, { ply, step }: Cursor): Cursor {
  return step !== null ? { ply, step: null } : { ply: Math.max(0, ply - 1), step: null };
}

export function clampPly(track: Track, ply: number): number {
  return Number.isInteger(ply) ? Math.min(track.total, Math.max(0, ply)) : 0;
}
