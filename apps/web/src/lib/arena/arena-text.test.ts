import { describe, expect, it } from 'vitest';
import { countdown } from './arena-text.js';

describe('countdown', () => {
  it('shows whole seconds, hours once an hour or more is left', () => {
    expect(countdown(0)).toBe('0:00');
    expect(countdown(5_200)).toBe('0:06');
    expect(countdown(12 * 60_000 + 30_000)).toBe('12:30');
    expect(countdown(10 * 3600_000 + 5 * 60_000)).toBe('10:05:00');
    expect(countdown(-3000)).toBe('0:00');
  });
});
