// Starting a game (R2, R2.4, R6) and continuing one from a given position.

import { describe, expect, it } from 'vitest';
import { outcome, play } from './play.js';
import { startPosition, validatePosition } from './position.js';
import { PRESETS } from './rule-options.js';
import { newGame, stateFromPosition } from './state.js';
import { studyPosition } from './testing/study.js';

describe('newGame', () => {
  it('R2: five dân per citizen square, both quan pieces, the given player first', () => {
    const state = newGame({ rules: PRESETS.vietnam, first: 1 });
    expect(state.rules).toBe(PRESETS.vietnam);
    expect(state.position).toEqual({ ...startPosition(0), toMove: 1 });
    expect(state.history.count).toBe(1);
    expect(outcome(state)).toBeNull();
    expect(newGame().position.toMove).toBe(0);
  });

  it('throws on bad options or a bad first player', () => {
    expect(() => newGame({ rules: { quanValue: 3 as never } })).toThrow(RangeError);
    expect(() => newGame({ first: 2 as never })).toThrow(RangeError);
  });
});

describe('stateFromPosition', () => {
  it('continues from a valid position', () => {
    const state = stateFromPosition(studyPosition([2, 0, 0, 1, 0, 0, 4, 0, 3, 0, 2, 1]));
    const result = play(state, { square: 3, dir: 1 });
    expect(result.ok).toBe(true);
  });

  it.each([
    ['a square count other than 12', { ...startPosition(), squares: [5, 5] }, 'squares'],
    ['a negative square', { ...startPosition(), squares: [-1, 6, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5] }, 'squares'],
    ['a lost quan piece', { ...startPosition(), quan: [false, true] }, 'quan pieces'],
    ['more than 50 dân', { ...startPosition(), squares: [1, 5, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5] }, '50'],
    ['a mover without dân', studyPosition([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]), 'no dân'],
    ['a running game with a result', { ...startPosition(), result: { reason: 'quan-gone', score: [1, 0], winner: 0 } }, 'no result'],
    ['an ended game without a result', { ...startPosition(), status: 'ended' }, 'needs a result'],
    ['a winner at odds with the score', { ...startPosition(), status: 'ended', result: { reason: 'quan-gone', score: [1, 0], winner: 1 } }, 'winner'],
    ['an unknown status', { ...startPosition(), status: 'paused' }, 'status'],
    ['no object at all', 42, 'object'],
  ])('refuses %s', (_, position, message) => {
    const checked = validatePosition(position);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.message).toContain(message);
    expect(() => stateFromPosition(position as never)).toThrow(RangeError);
  });

  it('accepts an ended position, on which every move is ERR_GAME_OVER', () => {
    const ended = { ...startPosition(), status: 'ended' as const, result: { reason: 'ply-limit' as const, score: [25, 25] as const, winner: null } };
    const state = stateFromPosition(ended);
    expect(outcome(state)).toEqual(ended.result);
    expect(play(state, { square: 1, dir: 1 })).toEqual({ ok: false, code: 'ERR_GAME_OVER' });
  });
});
