import { describe, expect, it } from 'vitest';
import { formatClock, formatDuration, remainingMs } from './clock.js';

describe('remainingMs', () => {
  const clocks = { remainingMs: [60_000, 30_000] as const, running: 0 as const, asOf: '2030-01-01T00:00:00.000Z' };
  const t0 = Date.parse(clocks.asOf);

  it('counts down only the running seat', () => {
    expect(remainingMs(clocks, 0, t0 + 5000, 0)).toBe(55_000);
    expect(remainingMs(clocks, 1, t0 + 5000, 0)).toBe(30_000);
  });

  it('corrects for the local clock being ahead of the server', () => {
    expect(remainingMs(clocks, 0, t0 + 7000, 2000)).toBe(55_000);
  });

  it('never goes below zero nor above the last known time', () => {
    expect(remainingMs(clocks, 0, t0 + 90_000, 0)).toBe(0);
    expect(remainingMs(clocks, 0, t0 - 5000, 0)).toBe(60_000);
  });
});

describe('formatClock', () => {
  it('shows minutes and seconds, tenths near the end, hours when long', () => {
    expect(formatClock(180_000)).toBe('3:00');
    expect(formatClock(61_999)).toBe('1:01');
    expect(formatClock(9_950)).toBe('0:09.9');
    expect(formatClock(0)).toBe('0:00.0');
    expect(formatClock(3_723_000)).toBe('1:02:03');
  });

  it('formats durations rounded up to the second', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(61_001)).toBe('1:02');
  });
});
