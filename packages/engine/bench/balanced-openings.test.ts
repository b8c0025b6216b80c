import { DEFAULT_RULES } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { bestMove } from '../src/best-move.js';
import { BALANCE_MARGIN, DEEP_NODES, balancedOpenings, candidateOpening, positionKey } from './balanced-openings.js';

const openings = balancedOpenings();

describe('the balanced openings', () => {
  it('are enough for the greedy bench: 50 pairs', () => {
    expect(openings.length).toBeGreaterThanOrEqual(50);
  });

  it('are the generator\'s candidates, in order, each reaching a position of its own', () => {
    const keys = new Set<string>();
    let last = -1;
    for (const o of openings) {
      expect(o.candidate).toBeGreaterThan(last);
      last = o.candidate;
      const drawn = candidateOpening(o.candidate, DEFAULT_RULES);
      expect(drawn, `candidate ${o.candidate}`).not.toBeNull();
      expect(drawn!.moves).toEqual(o.moves);
      expect(drawn!.state.position.status).toBe('playing');
      keys.add(positionKey(drawn!.state));
      expect(Math.abs(o.value)).toBeLessThanOrEqual(BALANCE_MARGIN);
    }
    expect(keys.size).toBe(openings.length);
  });

  it('carry the value the deep search gives (first two, and a candidate left out)', () => {
    for (const o of openings.slice(0, 2)) {
      const { state } = candidateOpening(o.candidate, DEFAULT_RULES)!;
      const deep = bestMove(state, { nodes: DEEP_NODES });
      const value = state.position.toMove === 0 ? deep.eval : -deep.eval;
      expect(Math.round(value * 100) / 100, `candidate ${o.candidate}`).toBe(o.value);
    }
    // Candidate 0 comes before the first kept one: the search must find it unbalanced.
    expect(openings[0]!.candidate).toBeGreaterThan(0);
    const { state } = candidateOpening(0, DEFAULT_RULES)!;
    const deep = bestMove(state, { nodes: DEEP_NODES });
    expect(Math.abs(deep.eval)).toBeGreaterThan(BALANCE_MARGIN);
  });
});
