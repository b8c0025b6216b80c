import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type OwnRedis } from '../testing/cluster.js';
import { SharedCounters } from './shared-counters.js';

const log = pino({ level: 'silent' });

describe('shared counters', () => {
  let redis: OwnRedis;
  let one: SharedCounters;
  let two: SharedCounters;
  beforeAll(async () => {
    redis = await startRedis();
    one = new SharedCounters(redis.url, log);
    two = new SharedCounters(redis.url, log);
    await Promise.all([one.connect(), two.connect()]);
  });
  afterAll(async () => {
    await one.close();
    await two.close();
    await redis.stop();
  });

  it('count as one for every process, each kind of counter', async () => {
    expect(await one.add('failures', 60_000)).toBe(1);
    expect(await two.add('failures', 60_000)).toBe(2);
    expect(await one.get('failures')).toMatchObject({ value: 2, ttlMs: expect.any(Number) });
    expect((await two.get('failures')).ttlMs).toBeGreaterThan(50_000);

    expect(await one.count('window', 60_000)).toMatchObject({ value: 1 });
    expect(await two.count('window', 60_000)).toMatchObject({ value: 2 });

    await two.set('wait', 3, 30_000);
    expect(await one.get('wait')).toMatchObject({ value: 3 });
    await one.delete('wait');
    expect(await two.get('wait')).toEqual({ value: 0, ttlMs: 0 });
  });

  it('keep a window fixed from its first count, and forget it after', async () => {
    const first = await one.count('short window', 300);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await two.count('short window', 300);
    expect(second.value).toBe(2);
    expect(second.ttlMs).toBeLessThan(first.ttlMs);
    await expect.poll(async () => (await one.get('short window')).value, { timeout: 10_000 }).toBe(0);
  });

  it('hold places for every process at once, and free one given back', async () => {
    expect(await Promise.all([one.hold('places', 'a', 2), two.hold('places', 'b', 2)])).toEqual([true, true]);
    expect(await one.hold('places', 'c', 2)).toBe(false);
    expect((await two.holders('places')).sort()).toEqual(['a', 'b']);
    // Given back by whichever process knows it is done.
    await two.release('places', 'a');
    expect(await one.hold('places', 'c', 2)).toBe(true);
    expect((await one.holders('places')).sort()).toEqual(['b', 'c']);
  });

  it('keep a place while its process lives, and let it lapse once the process is gone', async () => {
    const living = new SharedCounters(redis.url, log, { placeKeptMs: 600 });
    const dying = new SharedCounters(redis.url, log, { placeKeptMs: 600 });
    await Promise.all([living.connect(), dying.connect()]);
    expect(await Promise.all([living.hold('kept', 'a', 2), dying.hold('kept', 'b', 2)])).toEqual([true, true]);
    await dying.close();
    // Renewed every 200 ms, the living one's place outlasts several times what it is kept for.
    await expect.poll(() => one.holders('kept'), { timeout: 10_000 }).toEqual(['a']);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await one.holders('kept')).toEqual(['a']);
    await living.close();
  });

  it('count in each process, without failing, while Redis is gone', async () => {
    await redis.stop();
    await expect.poll(() => Promise.all([one.add('alone', 60_000), two.add('alone', 60_000)]), { timeout: 10_000 }).toEqual([1, 1]);
    expect(await one.add('alone', 60_000)).toBe(2);
    expect(await two.get('alone')).toMatchObject({ value: 1 });
    expect(await one.count('alone window', 60_000)).toMatchObject({ value: 1 });
    expect(await Promise.all([one.hold('alone places', 'a', 1), two.hold('alone places', 'b', 1)])).toEqual([true, true]);
    expect(await one.hold('alone places', 'c', 1)).toBe(false);
  });
});
