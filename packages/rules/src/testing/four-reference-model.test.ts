// The four-player reference model of four-play.property.test.ts checked against R10.11.

import { describe, expect, it } from 'vitest';
import { resolveFourRules } from '../four-rules.js';
import { fourModelPlay, fourModelStart, fourModelStartPosition } from './four-reference-model.js';

describe('the four-player reference model', () => {
  it('agrees with R10.11', () => {
    const after = fourModelPlay(fourModelStart(fourModelStartPosition(0)), { square: 1, dir: -1 }, resolveFourRules({ players: 4 })).position;
    expect(after.squares).toEqual([0, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6]);
    expect(after.quan).toEqual([false, true, true, true]);
    expect(after.captured[0]).toEqual({ dan: 1, quan: 1 });
    expect(after.toMove).toBe(1);
  });
});
