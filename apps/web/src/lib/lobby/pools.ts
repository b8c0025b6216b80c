import type { QueuePool, TimeControl } from '@oanquan/protocol';

/**
 * The queue's pools, as the protocol lists them. Kept here as plain data so
 * the browser bundle does not carry the protocol's schemas; the test beside
 * this file checks the two lists agree.
 */
export const POOLS = ['3+2', '5+3', '10+5'] as const satisfies readonly QueuePool[];

export function poolClock(pool: QueuePool): TimeControl {
  const [minutes, increment] = pool.split('+').map(Number) as [number, number];
  return { initialSeconds: minutes * 60, incrementSeconds: increment };
}
