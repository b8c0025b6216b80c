// R9 Worked examples, exactly as rules.md writes them.

import { describe, expect, it } from 'vitest';
import type { PlyEvent } from './events.js';
import { PRESETS, type RuleOptions } from './rule-options.js';
import { newGame, type State } from './state.js';
import { playOk, study as studyState } from './testing/study.js';

function study(squares: number[], rules?: Partial<RuleOptions>): State {
  return studyState(squares, {}, rules);
}

const captures = (events: readonly PlyEvent[]) => events.filter((e) => e.type === 'capture');

describe('R9', () => {
  it('E1: 1< relays from 8 through square 7, then captures square 0 (quan + 1 dân)', () => {
    const { state, events } = playOk(newGame(), { square: 1, dir: -1 });
    expect(state.position.squares).toEqual([0, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6]);
    expect(state.position.quan).toEqual([false, true]);
    expect(state.position.captured[0]).toEqual({ dan: 1, quan: 1 });
    expect(state.position.captured[0].dan + state.rules.quanValue * state.position.captured[0].quan).toBe(11);
    expect(events.filter((e) => e.type === 'drop').map((e) => e.square)).toEqual([0, 11, 10, 9, 8, 6, 5, 4, 3, 2]);
    expect(events.find((e) => e.type === 'relay')).toEqual({ type: 'relay', square: 7, count: 5 });
    expect(captures(events)).toEqual([{ type: 'capture', square: 0, dan: 1, quan: true }]);
  });

  it('E2: the same move under vietnam captures nothing (quan non)', () => {
    const { state, events } = playOk(newGame({ rules: PRESETS.vietnam }), { square: 1, dir: -1 });
    expect(state.position.squares).toEqual([1, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6]);
    expect(state.position.quan).toEqual([true, true]);
    expect(state.position.captured[0]).toEqual({ dan: 0, quan: 0 });
    expect(captures(events)).toEqual([]);
  });

  it('E3: 2> relays through square 8 and captures 6 dân', () => {
    // rules.md says "captures square 8 (6 dân)"; its own After board has
    // square 8 emptied by the relay and square 3 (6 dân) captured, which is
    // what R3.3 gives. The board and the 6 dân are checked as written.
    const { state, events } = playOk(newGame(), { square: 2, dir: 1 });
    expect(state.position.squares).toEqual([1, 6, 0, 0, 6, 6, 1, 6, 0, 6, 6, 6]);
    expect(state.position.captured[0]).toEqual({ dan: 6, quan: 0 });
    expect(events.find((e) => e.type === 'relay')).toEqual({ type: 'relay', square: 8, count: 5 });
    expect(captures(events)).toEqual([{ type: 'capture', square: 3, dan: 6, quan: false }]);
  });

  it('E4: a chain captures 6 (quan + 4), 8 and 10, and stops before 11', () => {
    const { state, events } = playOk(study([2, 0, 0, 1, 0, 0, 4, 0, 3, 0, 2, 1]), { square: 3, dir: 1 });
    expect(captures(events)).toEqual([
      { type: 'capture', square: 6, dan: 4, quan: true },
      { type: 'capture', square: 8, dan: 3, quan: false },
      { type: 'capture', square: 10, dan: 2, quan: false },
    ]);
    expect(state.position.squares).toEqual([2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]);
    expect(state.position.quan).toEqual([true, false]);
    expect(state.position.captured[0]).toEqual({ dan: 9, quan: 1 });
  });

  it('E4 with quanNon 5: nothing is captured', () => {
    const { state, events } = playOk(study([2, 0, 0, 1, 0, 0, 4, 0, 3, 0, 2, 1], { quanNon: 5 }), { square: 3, dir: 1 });
    expect(captures(events)).toEqual([]);
    expect(state.position.squares).toEqual([2, 0, 0, 0, 1, 0, 4, 0, 3, 0, 2, 1]);
    expect(state.position.captured[0]).toEqual({ dan: 0, quan: 0 });
  });

  it('E5: a lap of 12 lands on the origin itself, then the mandarin square ends the turn', () => {
    const { state, events } = playOk(study([0, 0, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0]), { square: 5, dir: 1 });
    expect(state.position.squares).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(events.filter((e) => e.type === 'drop').at(-1)).toEqual({ type: 'drop', square: 5 });
    expect(captures(events)).toEqual([]);
  });

  it('E5 with skipOrigin: the same move captures both mandarin squares', () => {
    const { state, events } = playOk(study([0, 0, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0], { skipOrigin: true }), {
      square: 5,
      dir: 1,
    });
    // The last dân falls on 6 (5 is skipped); 7, 9, 11, 1 and 3 each relay
    // their one dân; then 5 is empty and the chain runs round the ring.
    expect(events.filter((e) => e.type === 'relay').map((e) => e.square)).toEqual([7, 9, 11, 1, 3]);
    expect(captures(events)).toEqual([
      { type: 'capture', square: 6, dan: 2, quan: true },
      { type: 'capture', square: 8, dan: 2, quan: false },
      { type: 'capture', square: 10, dan: 2, quan: false },
      { type: 'capture', square: 0, dan: 2, quan: true },
      { type: 'capture', square: 2, dan: 2, quan: false },
      { type: 'capture', square: 4, dan: 2, quan: false },
    ]);
    expect(events.filter((e) => e.type === 'drop').some((e) => e.square === 5)).toBe(false);
    expect(state.position.quan).toEqual([false, false]);
    expect(state.position.captured[0]).toEqual({ dan: 12, quan: 2 });
    expect(state.position.status).toBe('ended');
    expect(state.position.result).toEqual({ reason: 'quan-gone', score: [32, 0], winner: 0 });
  });
});
