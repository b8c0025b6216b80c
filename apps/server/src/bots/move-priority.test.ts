import { describe, expect, it } from 'vitest';
import { waitFor } from '../testing/wait-for.js';
import { MovePriority } from './move-priority.js';

/** A move that runs until let go, recording when it started. */
function held(log: string[], name: string) {
  let letGo!: () => void;
  const done = new Promise<void>((resolve) => (letGo = resolve));
  return { task: () => (log.push(name), done.then(() => name)), letGo };
}

const lane = { width: 1, bound: 100, boundPerKey: 100, maxWaitMs: 60_000 };
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('MovePriority', () => {
  it("takes an address's moves against the computer at once up to its rate, and the rest behind people's moves", async () => {
    let now = 0;
    const priority = new MovePriority((matchId) => matchId.startsWith('bot'), { perSecond: 2, ceilingPerSecond: 100 }, lane, () => now);
    const log: string[] = [];
    const person = held(log, 'people');
    const people = priority.move('people-game', '198.51.100.7', person.task);
    // Within the rate: at once, even while people's move is in flight.
    expect(await priority.move('bot-1', '198.51.100.7', async () => 'first')).toBe('first');
    expect(await priority.move('bot-2', '198.51.100.7', async () => 'second')).toBe('second');
    // Beyond it: waits for people's move.
    const third = priority.move('bot-1', '198.51.100.7', async () => void log.push('third'));
    for (let i = 0; i < 5; i++) await turn();
    expect(log).toEqual(['people']);
    expect(priority.waiting).toBe(1);
    // Another address has an allowance of its own.
    expect(await priority.move('bot-3', '203.0.113.9', async () => 'other')).toBe('other');
    person.letGo();
    await Promise.all([people, third]);
    expect(log).toEqual(['people', 'third']);
    // A second later the allowance is back.
    now += 1000;
    const log2: string[] = [];
    const again = held(log2, 'people again');
    const moving = priority.move('people-game', '198.51.100.7', again.task);
    expect(await priority.move('bot-1', '198.51.100.7', async () => 'refilled')).toBe('refilled');
    again.letGo();
    await moving;
  });

  it('refuses a move against the computer as BUSY when its lane is full', async () => {
    const priority = new MovePriority(() => true, { perSecond: 1, ceilingPerSecond: 100 }, { ...lane, boundPerKey: 1 }, () => 0);
    expect(await priority.move('bot', 'a', async () => 'within the rate')).toBe('within the rate');
    const log: string[] = [];
    const first = held(log, 'first');
    const running = priority.move('bot', 'a', first.task);
    await waitFor('the first move in the lane to start', () => log.length === 1, { everyMs: 1 });
    const waiting = priority.move('bot', 'a', async () => 'queued');
    await expect(priority.move('bot', 'a', async () => 'refused')).rejects.toMatchObject({ code: 'BUSY' });
    first.letGo();
    expect(await Promise.all([running, waiting])).toEqual(['first', 'queued']);
  });

  it("holds an address's moves beyond its ceiling for their turn at that rate, in order, and refuses more than the lane's bound", async () => {
    let now = 0;
    const priority = new MovePriority(() => true, { perSecond: 1, ceilingPerSecond: 2 }, { ...lane, boundPerKey: 2 }, () => now);
    const log: string[] = [];
    const moves = ['a', 'b', 'c', 'd'].map((name) => priority.move('bot', '198.51.100.7', async () => void log.push(name)));
    // Two within the ceiling's second's worth, two reserved after it; a fifth would be a third waiting.
    await expect(priority.move('bot', '198.51.100.7', async () => 'refused')).rejects.toMatchObject({ code: 'BUSY' });
    // Another address is not held up by this one's ceiling.
    expect(await priority.move('bot', '203.0.113.9', async () => 'other')).toBe('other');
    await Promise.all(moves);
    expect(log).toEqual(['a', 'b', 'c', 'd']);
    expect(priority.paced).toBe(2);
    // Time moved on (the clock here is the test's): the reservations are spent and the allowance refills.
    now += 2000;
    expect(await priority.move('bot', '198.51.100.7', async () => 'refilled')).toBe('refilled');
  });
});
