import type { PlyEvent, Position } from '@oanquan/rules';
import { FRAME_MS, sowingFrames, type BoardFrame } from './frames.js';
import { paceFactor, sowingMs } from './sowing-pace.js';
import { frameSound } from '../sound/sounds.js';

export interface PlyOptions {
  /** Runs when the ply's last frame has been shown (or at once without animation, or when stopped). */
  done?: () => void;
  /** In a timed game: ms from now until the next clock starts (the ply's sowing allowance ends). */
  withinMs?: () => number;
}

interface Queued extends PlyOptions {
  frames: BoardFrame[];
  ply: number;
  msAtOne: number;
  /** When each frame is due, in ms after the first was shown (and, last, when the ply ends); fixed when it starts to show. */
  due?: number[];
  /** When the first frame was shown (Date.now()). */
  startedAt?: number;
}

/**
 * Plays plies on the board one frame at a time. While it runs, `frame` is
 * what the board shows; when idle it is null and the board shows the live
 * position. Plies that arrive during an animation wait their turn.
 */
export class BoardAnimator {
  frame = $state.raw<BoardFrame | null>(null);
  /** The ply being sown (the position's ply after it), while `frame` is not null. */
  ply = $state.raw<number | null>(null);
  private queue: Queued[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private current: Queued | undefined;

  constructor(private readonly factor: () => number) {}

  get busy(): boolean {
    return this.frame !== null;
  }

  /** Shows one ply stone by stone; in a timed game, within its sowing allowance. */
  play(before: Position, events: readonly PlyEvent[], after: Position, options: PlyOptions = {}): void {
    if (this.factor() <= 0 && !this.current) {
      options.done?.();
      return;
    }
    const frames = sowingFrames(before, events, after);
    this.queue.push({ ...options, frames, msAtOne: sowingMs(frames), ply: after.ply });
    if (!this.current) this.next();
  }

  /** Drops every animation at once and shows the live position (a resync, leaving the page, a player's input). */
  stop(): void {
    clearTimeout(this.timer);
    const pending = [this.current, ...this.queue];
    this.queue = [];
    this.current = undefined;
    this.frame = null;
    this.ply = null;
    for (const item of pending) item?.done?.();
  }

  private next(): void {
    this.current = this.queue.shift();
    if (!this.current) {
      this.frame = null;
      this.ply = null;
      return;
    }
    this.show(this.current, 0);
  }

  private show(item: Queued, index: number): void {
    const factor = this.factor();
    if (!item.frames[index] || factor <= 0) {
      item.done?.();
      this.next();
      return;
    }
    if (!item.due) {
      item.startedAt = Date.now();
      item.due = dueTimes(item.frames, paceFactor(factor, item.msAtOne, item.withinMs?.() ?? null));
    }
    // In a timed game each frame keeps to its time from the ply's start, and frames whose time has passed are
    // skipped: on a slow device (timers late, a busy page) the ply still ends within its sowing allowance. An
    // untimed game has no deadline to keep, so every stone is shown (and heard), late or not.
    const elapsed = item.withinMs ? Date.now() - item.startedAt! : item.due[index]!;
    while (item.withinMs && index + 1 < item.frames.length && item.due[index + 1]! <= elapsed) index++;
    const frame = item.frames[index]!;
    this.frame = frame;
    this.ply = item.ply;
    frameSound(frame, item.frames[index - 1]);
    this.timer = setTimeout(() => this.show(item, index + 1), Math.max(0, item.due[index + 1]! - elapsed));
  }
}

/** When each frame is due at `pace`, in ms after the first, and last when the ply ends. */
function dueTimes(frames: readonly BoardFrame[], pace: number): number[] {
  const due = [0];
  for (const frame of frames) due.push(due.at(-1)! + FRAME_MS[frame.kind ?? 'drop'] * pace);
  return due;
}
