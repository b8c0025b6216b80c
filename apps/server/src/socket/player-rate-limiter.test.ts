import { describe, expect, it } from 'vitest';
import { PlayerRateLimiter } from './player-rate-limiter.js';

describe('PlayerRateLimiter', () => {
  it('gives each player one bucket, whatever socket asks', () => {
    let now = 0;
    const limiter = new PlayerRateLimiter(3, 1, 100, () => now);
    expect([limiter.take('p'), limiter.take('p'), limiter.take('p'), limiter.take('p')]).toEqual([true, true, true, false]);
    expect(limiter.take('q')).toBe(true);
    now += 1000;
    expect([limiter.take('p'), limiter.take('p')]).toEqual([true, false]);
  });

  it('forgets players idle long enough to have a full bucket again, and never holds more than its bound', () => {
    let now = 0;
    const limiter = new PlayerRateLimiter(3, 1, 100, () => now);
    for (let i = 0; i < 50; i++) limiter.take(`idle-${i}`);
    now += 3000;
    limiter.take('active');
    expect(limiter.size).toBe(1);

    for (let i = 0; i < 500; i++) limiter.take(`busy-${i}`);
    expect(limiter.size).toBe(100);
  });

  it('does not forget a player still within the refill time', () => {
    let now = 0;
    const limiter = new PlayerRateLimiter(3, 1, 100, () => now);
    limiter.take('p');
    limiter.take('p');
    limiter.take('p');
    now += 1500;
    limiter.take('q');
    expect([limiter.take('p'), limiter.take('p')]).toEqual([true, false]);
  });
});
