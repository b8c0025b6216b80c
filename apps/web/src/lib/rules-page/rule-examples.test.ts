import { describe, expect, it } from 'vitest';
import { scoreBreakdown } from '@oanquan/rules';
import { ruleExamples } from './rule-examples.js';

const byId = Object.fromEntries(ruleExamples().map((e) => [e.id, e]));
const captures = (id: string) => byId[id]!.events.filter((e) => e.type === 'capture');

describe('the rules page diagrams', () => {
  it('show R9 E3: 2> relays through square 8 and captures square 3', () => {
    expect(byId.sowing!.after.squares).toEqual([1, 6, 0, 0, 6, 6, 1, 6, 0, 6, 6, 6]);
    expect(byId.sowing!.events.find((e) => e.type === 'relay')).toMatchObject({ square: 8 });
    expect(captures('sowing')).toEqual([{ type: 'capture', square: 3, dan: 6, quan: false }]);
  });

  it('show R9 E1 and E2: the quan square captured, and not under quan non', () => {
    expect(byId.capture!.after.squares).toEqual([0, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6]);
    expect(byId.capture!.after.captured[0]).toEqual({ dan: 1, quan: 1 });
    expect(byId['quan-non']!.after.squares).toEqual([1, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6]);
    expect(captures('quan-non')).toEqual([]);
  });

  it('show R9 E4: a chain of three captures', () => {
    expect(captures('chain').map((e) => e.square)).toEqual([6, 8, 10]);
  });

  it('show a refill paid partly with borrowed dân (R4.3)', () => {
    const refill = byId.refill!.events.find((e) => e.type === 'refill');
    expect(refill).toEqual({ type: 'refill', player: 1, squares: [7, 8, 9, 10, 11], own: 3, borrowed: 2 });
    expect(byId.refill!.after.debt).toEqual([0, 2]);
  });

  it('show an ending and a score that adds up to 70 (R4.2, R5.3)', () => {
    const { after, options } = byId.end!;
    expect(after.result).toMatchObject({ reason: 'quan-gone' });
    const { players } = scoreBreakdown(after, options);
    expect(players[0].total + players[1].total).toBe(70);
    expect(after.result!.score).toEqual([players[0].total, players[1].total]);
  });
});
