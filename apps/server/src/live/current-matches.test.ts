import { describe, expect, it } from 'vitest';
import { CurrentMatches, type CurrentMatch } from './current-matches.js';

const match = (version: number): CurrentMatch => ({ id: 'm', version, status: 'playing', player0Id: 'a', player1Id: 'b' });

describe('CurrentMatches', () => {
  it('remembers a read until its room changes', () => {
    const currents = new CurrentMatches();
    currents.remember('room', match(3), currents.mark());
    expect(currents.get('room')).toEqual(match(3));
    currents.changed('room');
    expect(currents.get('room')).toBeUndefined();
  });

  it('does not remember a read that a change may have overtaken', () => {
    const currents = new CurrentMatches();
    const mark = currents.mark();
    currents.changed('other room');
    currents.remember('room', match(3), mark);
    expect(currents.get('room')).toBeUndefined();
  });

  it('forgets the oldest room beyond its capacity', () => {
    const currents = new CurrentMatches(2);
    for (const code of ['a', 'b', 'c']) currents.remember(code, match(1), currents.mark());
    expect(currents.get('a')).toBeUndefined();
    expect(currents.get('c')).toEqual(match(1));
  });
});
