import { describe, expect, it } from 'vitest';
import { poolTimeControl, queuePools } from '@oanquan/protocol';
import { POOLS, poolClock } from './pools.js';

describe('the queue pools', () => {
  it('are the protocol’s, with the same clocks', () => {
    expect([...POOLS]).toEqual([...queuePools]);
    for (const pool of POOLS) expect(poolClock(pool)).toEqual(poolTimeControl(pool));
  });
});
