import { FRAME_MS, restingFrame, type BoardFrame } from '../board/frames.js';
import { clampPly, nextMove, nextStone, previousMove, previousStone, type Cursor, type Track } from './replay-cursor.js';
import type { ReplayGame } from './replay-game.js';

/** Autoplay speeds: how many times faster than the normal sowing animation. */
export const AUTOPLAY_SPEEDS = [0.5, 1, 2, 4] as const;
export type AutoplaySpeed = (typeof AUTOPLAY_SPEEDS)[number];

/** A pause at rest between two moves while autoplaying, at speed 1. */
const REST_MS = 700;

/** The replay viewer's position in a game and its autoplay. */
export class ReplayState implements Track {
  cursor = $state.raw<Cursor>({ ply: 0, step: null });
  playing = $state(false);
  speed = $state<AutoplaySpeed>(1);
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly game: ReplayGame,
    startPly: number,
    /** Whether stones may be shown one by one (not under reduced motion). */
    private readonly motion: () => boolean,
  ) {
    this.cursor = { ply: clampPly(this, startPly), step: null };
  }

  get total(): number {
    return this.game.frames.length;
  }

  stepsOf(ply: number): number {
    return Math.max(0, (this.game.frames[ply - 1]?.length ?? 0) - 1);
  }

  get frame(): BoardFrame {
    const { ply, step } = this.cursor;
    if (step !== null) {
      const frame = this.game.frames[ply]?.[step];
      if (frame) return frame;
    }
    return restingFrame(this.game.positions[ply]!);
  }

  get atEnd(): boolean {
    return this.cursor.ply >= this.total;
  }

  go(to: Cursor | number): void {
    this.cursor = typeof to === 'number' ? { ply: clampPly(this, to), step: null } : to;
  }

  nextStone = () => this.go(nextStone(this, this.cursor));
  previousStone = () => this.go(previousStone(this, this.cursor));
  nextMove = () => this.go(nextMove(this, this.cursor));
  previousMove = () => this.go(previousMove(this, this.cursor));
  first = () => this.go(0);
  last = () => this.go(this.total);

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  play(): void {
    if (this.atEnd) this.go(0);
    this.playing = true;
    this.schedule();
  }

  pause(): void {
    this.playing = false;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (!this.playing) return;
    if (this.atEnd) {
      this.playing = false;
      return;
    }
    const byStone = this.motion();
    const kind = this.cursor.step === null ? null : this.frame.kind;
    const ms = (byStone && kind ? FRAME_MS[kind] : REST_MS) / this.speed;
    this.timer = setTimeout(() => {
      if (byStone) this.nextStone();
      else this.nextMove();
      this.schedule();
    }, ms);
  }
}
