import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newGame, play } from '@oanquan/rules';
import { BoardAnimator } from './board-animator.svelte.js';
import { HURRIED_MS } from './sowing-pace.js';

describe('BoardAnimator', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const state = newGame();
  const result = play(state, { square: 1, dir: -1 });
  if (!result.ok) throw new Error(result.code);

  it('shows nothing and finishes at once without motion', () => {
    const animator = new BoardAnimator(() => 0);
    let done = false;
    animator.play(state.position, result.events, result.state.position, { done: () => (done = true) });
    expect(done).toBe(true);
    expect(animator.frame).toBeNull();
  });

  it('shows each stone in turn, then rests on the live position', () => {
    const animator = new BoardAnimator(() => 1);
    const seen: string[] = [];
    let done = false;
    animator.play(state.position, result.events, result.state.position, { done: () => (done = true) });
    while (animator.frame) {
      seen.push(animator.frame.kind!);
      vi.advanceTimersToNextTimer();
    }
    expect(done).toBe(true);
    expect(seen).toEqual(['pickup', 'drop', 'drop', 'drop', 'drop', 'drop', 'relay', 'drop', 'drop', 'drop', 'drop', 'drop', 'capture']);
  });

  it('squeezes a ply into a short time when the viewer’s clock runs low', () => {
    const animator = new BoardAnimator(() => 1.8);
    let done = false;
    animator.play(state.position, result.events, result.state.position, { done: () => (done = true), clockMs: () => 5_000 });
    vi.advanceTimersByTime(HURRIED_MS + 1);
    expect(done).toBe(true);
    expect(animator.frame).toBeNull();
  });

  it('queues a ply that arrives during another, and stops everything on demand', () => {
    const animator = new BoardAnimator(() => 1);
    const finished: number[] = [];
    animator.play(state.position, result.events, result.state.position, { done: () => finished.push(1) });
    animator.play(state.position, result.events, result.state.position, { done: () => finished.push(2) });
    vi.advanceTimersToNextTimer();
    expect(finished).toEqual([]);
    animator.stop();
    expect(finished).toEqual([1, 2]);
    expect(animator.frame).toBeNull();
  });
});
