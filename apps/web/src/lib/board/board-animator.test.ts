import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { legalMoves, newGame, play, sowingMs } from '@oanquan/rules';
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

  it('on a slow device (its timers late), skips the frames whose time has passed and still ends within the allowance', () => {
    const animator = new BoardAnimator(() => 1);
    const start = Date.now();
    let doneAt: number | null = null;
    animator.play(state.position, result.events, result.state.position, { done: () => (doneAt = Date.now()), withinMs: () => 1000 });
    expect(animator.frame?.kind).toBe('pickup');
    // The page was busy for 900 ms: no timer fired meanwhile.
    vi.setSystemTime(start + 900);
    vi.advanceTimersToNextTimer();
    const lateAt = Date.now();
    const shownLate = animator.frame;
    let frames = 1;
    while (animator.frame) {
      frames++;
      vi.advanceTimersToNextTimer();
    }
    expect(shownLate?.kind).not.toBe('drop');
    expect(frames).toBeLessThan(result.events.length);
    // Done when the allowance ends, or at once when the late timer fired after it (a timer of 0 ms nested in
    // another fires a few ms later: browsers clamp it to 4 ms, the fake timers to 1).
    expect(doneAt!).toBeLessThanOrEqual(Math.max(start + 1000, lateAt + 4));
  });

  it('names the ply it is sowing, the earlier while a later one waits, and none once at rest', () => {
    const second = play(result.state, legalMoves(result.state)[0]!);
    if (!second.ok) throw new Error(second.code);
    const animator = new BoardAnimator(() => 1);
    expect(animator.ply).toBeNull();
    animator.play(state.position, result.events, result.state.position);
    animator.play(result.state.position, second.events, second.state.position);
    const sown: number[] = [];
    while (animator.frame) {
      if (sown.at(-1) !== animator.ply) sown.push(animator.ply!);
      vi.advanceTimersToNextTimer();
    }
    expect(sown).toEqual([1, 2]);
    expect(animator.ply).toBeNull();
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
