import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newGame, play, sowingMs } from '@oanquan/rules';
import { BoardAnimator } from './board-animator.svelte.js';

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

  it('in a timed game, shows a ply within its sowing allowance, at the default speed at most', () => {
    const slow = new BoardAnimator(() => 1.8);
    let done = false;
    slow.play(state.position, result.events, result.state.position, { done: () => (done = true), withinMs: () => 60_000 });
    vi.advanceTimersByTime(sowingMs(result.events) + 1);
    expect(done).toBe(true);

    const squeezed = new BoardAnimator(() => 1);
    done = false;
    squeezed.play(state.position, result.events, result.state.position, { done: () => (done = true), withinMs: () => 500 });
    vi.advanceTimersByTime(501);
    expect(done).toBe(true);
    expect(squeezed.frame).toBeNull();
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
