import { describe, expect, it } from 'vitest';
import { thinkBudgetMs } from './think-budget.js';

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
});
