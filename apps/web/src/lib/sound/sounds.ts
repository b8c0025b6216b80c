import type { BoardFrame } from '../board/frames.js';
import { soundSetting } from '../settings/sound.svelte.js';
import { frameCue } from './cues.js';
import { hasBeenTouched } from './gesture.js';
import { synthesize, type SoundKind } from './synth.js';

export type { SoundKind };

/** Announced on `window` for every sound actually played, so a page (and its tests) can follow them. */
export const SOUND_EVENT = 'oanquan:sound';

let context: AudioContext | null = null;

export function playSound(kind: SoundKind): void {
  if (!hasBeenTouched() || !soundSetting().on || typeof AudioContext === 'undefined') return;
  context ??= new AudioContext();
  if (context.state === 'suspended') void context.resume();
  synthesize(context, kind);
  window.dispatchEvent(new CustomEvent(SOUND_EVENT, { detail: kind }));
}

/** The sound of one frame of a sowing, if it makes one. */
export function frameSound(frame: BoardFrame, previous: BoardFrame | undefined): void {
  const kind = frameCue(frame, previous);
  if (kind) playSound(kind);
}
