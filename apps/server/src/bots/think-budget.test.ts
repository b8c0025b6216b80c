import { describe, expect, it } from 'vitest';
import { DELAY_AS_DEADLINE_MIN_MS, thinkBudgetMs } from './think-budget.js';

describe('thinkBudgetMs', () => {
  it('takes the whole think time without a clock, or with plenty on it', () => {
    expect(thinkBudgetMs({ thinkMs: 100, remainingMs: null, incrementMs: null })).toBe(100);
    expect(thinkBudgetMs({ thinkMs: 100, remainingMs: 300_000, incrementMs: 0 })).toBe(100);
  });

  it('spends a small share of a short clock, and keeps a floor when almost nothing is left', () => {
    expect(thinkBudgetMs({ thinkMs: 100, remainingMs: 2000, incrementMs: 0 })).toBe(40);
    expect(thinkBudgetMs({ thinkMs: 100, remainingMs: 2000, incrementMs: 100 })).toBe(90);
    expect(thinkBudgetMs({ thinkMs: 100, remainingMs: -5, incrementMs: null })).toBe(5);
  });

  it('never gives more than a fiftieth of what is left plus half the increment, floor aside', () => {
    for (let remaining = 300; remaining < 200_000; remaining *= 1.7) {
      const budget = thinkBudgetMs({ thinkMs: 1000, remainingMs: remaining, incrementMs: 1000 });
      expect(budget).toBeLessThanOrEqual(Math.max(5, remaining / 50 + 500));
    }
  });

  it("ends the search by the move's own deadline when the move is held back, and keeps the think time when it is not", () => {
    expect(thinkBudgetMs({ thinkMs: 1000, remainingMs: null, incrementMs: null, moveDelayMs: 600 })).toBe(600);
    expect(thinkBudgetMs({ thinkMs: 400, remainingMs: null, incrementMs: null, moveDelayMs: 600 })).toBe(400);
    expect(thinkBudgetMs({ thinkMs: 1000, remainingMs: null, incrementMs: null, moveDelayMs: 0 })).toBe(1000);
    expect(thinkBudgetMs({ thinkMs: 1000, remainingMs: null, incrementMs: null, moveDelayMs: DELAY_AS_DEADLINE_MIN_MS - 1 })).toBe(1000);
    // A short clock still gives less than the delay.
    expect(thinkBudgetMs({ thinkMs: 1000, remainingMs: 2000, incrementMs: 0, moveDelayMs: 600 })).toBe(40);
  });
});
