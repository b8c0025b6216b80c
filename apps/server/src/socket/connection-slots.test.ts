import { describe, expect, it } from 'vitest';
import { ConnectionSlots } from './connection-slots.js';

describe('ConnectionSlots', () => {
  it('refuses a key past its limit, frees a slot given back, and forgets keys at zero', () => {
    const slots = new ConnectionSlots(2);
    expect([slots.take('a'), slots.take('a'), slots.take('a'), slots.take('b')]).toEqual([true, true, false, true]);
    slots.give('a');
    expect(slots.take('a')).toBe(true);
    slots.give('a');
    slots.give('a');
    slots.give('b');
    expect(slots.count('a')).toBe(0);
    expect(slots.size).toBe(0);
  });
});
