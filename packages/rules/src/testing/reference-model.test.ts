// The reference model of play.property.test.ts checked against R9.

import { describe, expect, it } from 'vitest';
import type { Position } from '../position.js';
import { DEFAULT_RULES, PRESETS } from '../rule-options.js';
import { modelPlay, modelStart, modelStartPosition as start } from './reference-model.js';

describe('the reference model', () => {
  it('agrees with R9 E1, E2 and E3', () => {
    const e1 = modelPlay(modelStart(start(0)), { square: 1, dir: -1 }, DEFAULT_RULES).position;
    expect(e1.squares).toEqual([0, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6]);
    expect(e1.captured[0]).toEqual({ dan: 1, quan: 1 });
    const e2 = modelPlay(modelStart(start(0)), { square: 1, dir: -1 }, PRESETS.vietnam).position;
    expect(e2.squares).toEqual([1, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6]);
    const e3 = modelPlay(modelStart(start(0)), { square: 2, dir: 1 }, DEFAULT_RULES).position;
    expect(e3.squares).toEqual([1, 6, 0, 0, 6, 6, 1, 6, 0, 6, 6, 6]);
  });

  it('agrees with R9 E4 and E5', () => {
    const at = (squares: number[]): Position => ({ ...start(0), squares });
    const e4 = modelPlay(modelStart(at([2, 0, 0, 1, 0, 0, 4, 0, 3, 0, 2, 1])), { square: 3, dir: 1 }, DEFAULT_RULES);
    expect(e4.position.captured[0]).toEqual({ dan: 9, quan: 1 });
    const e5 = modelPlay(modelStart(at([0, 0, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0])), { square: 5, dir: 1 }, DEFAULT_RULES);
    expect(e5.position.squares).toEqual(Array(12).fill(1));
    const e5skip = modelPlay(
      modelStart(at([0, 0, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0])),
      { square: 5, dir: 1 },
      { ...DEFAULT_RULES, skipOrigin: true },
    );
    expect(e5skip.position.quan).toEqual([false, false]);
  });
});
