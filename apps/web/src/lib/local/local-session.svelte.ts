import type { Move } from '@oanquan/rules';
import type { Hand } from '@oanquan/protocol';
import { BoardAnimator } from '../board/board-animator.svelte.js';
import { settings } from '../settings/settings.svelte.js';
import { chooseHand, flagFall, gameOf, newRecord, parseRecord, playMove, resultOf, type LocalRecord, type LocalSetup } from './local-record.js';

/** Where this browser keeps the game in progress. */
export const LOCAL_KEY = 'oanquan.local';

/**
 * A game of two on one phone: the record, kept in this browser's storage
 * after every change, so a reload goes on where it was; the board animator
 * shows each ply stone by stone, as in a room.
 */
export class LocalSession {
  record = $state.raw<LocalRecord | null>(null);
  readonly game = $derived(this.record ? gameOf(this.record) : null);
  readonly result = $derived(this.record ? resultOf(this.record, this.game) : null);
  readonly animator = new BoardAnimator(() => settings().motionFactor);

  /** Reads back the game in progress, if this browser has one. */
  load(): void {
    try {
      this.record = parseRecord(localStorage.getItem(LOCAL_KEY));
    } catch {
      // Without storage a game still runs, for as long as the page is open.
      this.record = null;
    }
  }

  start(setup: LocalSetup): void {
    this.animator.stop();
    this.save(newRecord(setup));
  }

  /** Back to the settings, the game dropped (after "play again"). */
  clear(): void {
    this.animator.stop();
    this.save(null);
  }

  choose(hand: Hand): void {
    if (this.record) this.save(chooseHand(this.record, hand));
  }

  /** Seat 0 has chosen and given the phone to seat 1. */
  handOver(): void {
    if (this.record?.hidden) this.save({ ...this.record, handed: true });
  }

  move(move: Move): void {
    if (!this.record || !this.game || this.result) return;
    const before = this.game.state.position;
    const played = playMove(this.record, this.game, move, Date.now());
    if (!played) return;
    this.animator.stop();
    this.save(played.record);
    const startsAt = played.record.clocks?.startsAt;
    this.animator.play(before, played.events, played.after.position, startsAt ? { withinMs: () => Date.parse(startsAt) - Date.now() } : {});
  }

  /** Ends the game when the running clock has run out by `now`. */
  checkClock(now: number): void {
    const flagged = this.record && flagFall(this.record, now);
    if (flagged) this.save(flagged);
  }

  private save(record: LocalRecord | null): void {
    this.record = record;
    try {
      if (record) localStorage.setItem(LOCAL_KEY, JSON.stringify(record));
      else localStorage.removeItem(LOCAL_KEY);
    } catch {
      // A full or forbidden storage loses only the resume after a reload.
    }
  }
}
