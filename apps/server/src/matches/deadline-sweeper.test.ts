import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { MatchEventEnvelope } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { DeadlineSweeper } from './deadline-sweeper.js';
import type { MatchService } from './match-service.js';

/** Waits for `done()` to hold, checking every few ms, up to a generous ceiling. */
async function until(done: () => boolean, ceilingMs = 10_000): Promise<void> {
  for (const started = Date.now(); !done(); ) {
    if (Date.now() - started > ceilingMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A sweeper whose periodic sweep never runs (not started): only its timer acts. */
function sweeper() {
  const expired: string[] = [];
  const matches = { expire: async (id: string) => void expired.push(id), openerTimeoutMs: 1000 } as unknown as MatchService;
  const deadlines = new DeadlineSweeper({} as Database, matches, pino({ level: 'silent' }), { abandonGraceMs: 60_000 });
  return { deadlines, expired };
}

const playing = (id: string, inMs: number) => ({ id, status: 'playing', clockDeadline: new Date(Date.now() + inMs) });
const none: MatchEventEnvelope[] = [];

describe('DeadlineSweeper timer', () => {
  it('expires each match at its deadline, the latest a move set: an earlier one that a move moved on is not acted on', async () => {
    const { deadlines, expired } = sweeper();
    deadlines.changed(playing('moved-on', 40), none);
    deadlines.changed(playing('due', 150), none);
    // A move in the first match: its clock now runs out after the second's.
    deadlines.changed(playing('moved-on', 400), none);
    await until(() => expired.length === 1);
    expect(expired).toEqual(['due']);
    await until(() => expired.length === 2);
    expect(expired).toEqual(['due', 'moved-on']);
    await deadlines.stop();
  });

  it('acts on the first-move deadline a started event sets, and forgets a match that is no longer in play', async () => {
    const { deadlines, expired } = sweeper();
    const started: MatchEventEnvelope[] = [
      { matchId: 'first', version: 3, at: new Date().toISOString(), event: { type: 'started', first: 0, clocks: null, firstMoveDeadline: new Date(Date.now() + 30).toISOString() } },
    ];
    deadlines.changed({ id: 'first', status: 'playing', clockDeadline: null }, started);
    deadlines.changed(playing('ended', 20), none);
    deadlines.changed({ id: 'ended', status: 'ended', clockDeadline: null }, none);
    deadlines.changed(playing('later', 200), none);
    await until(() => expired.includes('later'));
    expect(expired).toEqual(['first', 'later']);
    await deadlines.stop();
  });
});
