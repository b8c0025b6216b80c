import { describe, expect, it } from 'vitest';
import { MemoryCounters } from '../limits/counters.js';
import { ConnectionSlots } from './connection-slots.js';

describe('ConnectionSlots', () => {
  it('refuses a key past its limit, frees a slot given back, and forgets keys at zero', async () => {
    const places = new MemoryCounters();
    const slots = new ConnectionSlots(2, places, 'player');
    expect(await Promise.all([slots.take('a', 's1'), slots.take('a', 's2'), slots.take('a', 's3'), slots.take('b', 's4')])).toEqual([true, true, false, true]);
    slots.give('a', 's1');
    await expect.poll(() => slots.take('a', 's5')).toBe(true);
    slots.give('a', 's2');
    slots.give('a', 's5');
    slots.give('b', 's4');
    await expect.poll(() => places.placesHeld).toBe(0);
  });
});
