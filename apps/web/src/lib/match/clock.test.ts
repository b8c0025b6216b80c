import { describe, expect, it } from 'vitest';
import { ClockOffset, countsFrom, formatClock, formatDuration, remainingMs, runsOutAt } from './clock.js';

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

describe('the sowing allowance on the clock', () => {
  const clocks = { remainingMs: [60_000, 30_000] as const, running: 0 as const, asOf: '2030-01-01T00:00:00.000Z', startsAt: '2030-01-01T00:00:03.000Z' };
  const t0 = Date.parse(clocks.asOf);

  it('stands until the clock starts, then counts down from that instant', () => {
    expect(remainingMs(clocks, 0, t0 + 2000, 0)).toBe(60_000);
    expect(remainingMs(clocks, 0, t0 + 5000, 0)).toBe(58_000);
    expect(remainingMs(clocks, 0, t0 + 5000, 1000)).toBe(59_000);
  });

  it('runs out at the start plus the whole remaining time, as the server’s deadline', () => {
    expect(runsOutAt(clocks, 0)).toBe(t0 + 63_000);
    expect(runsOutAt(clocks, 500)).toBe(t0 + 63_500);
    expect(runsOutAt({ ...clocks, running: null }, 0)).toBeNull();
    expect(countsFrom({ ...clocks, startsAt: undefined }, 0)).toBe(t0);
  });
});

describe('ClockOffset', () => {
  it('takes the quickest of the latest deliveries, and follows a local clock set again', () => {
    const offset = new ClockOffset();
    const t0 = Date.parse('2030-01-01T00:00:00.000Z');
    expect(offset.sample('not a date', t0)).toBeNull();
    expect(offset.sample('2030-01-01T00:00:00.000Z', t0 + 40)).toBe(40);
    expect(offset.sample('2030-01-01T00:00:01.000Z', t0 + 1_300)).toBe(40);
    expect(offset.sample('2030-01-01T00:00:02.000Z', t0 + 2_010)).toBe(10);
    for (let i = 3; i < 11; i++) offset.sample(`2030-01-01T00:00:${String(i).padStart(2, '0')}.000Z`, t0 + i * 1000 + 5_000);
    expect(offset.sample('2030-01-01T00:00:11.000Z', t0 + 16_000)).toBe(5_000);
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
