import type { BoardFrame } from '../board/frames.js';
import type { SoundKind } from './synth.js';

/** What a room's sounds depend on, at one moment. */
export interface RoomState {
  matchId: string;
  myTurn: boolean;
  ended: boolean;
  lowTime: boolean;
}

/**
 * The sounds due between two moments of a room: each cue when its condition
 * becomes true within one match, never for the state a page opens on (nor a
 * new match's); low time once a match, not again at each of the player's turns.
 * Returns them with the state to compare the next moment against.
 */
export function roomCues(seen: RoomState | null, now: RoomState): { sounds: SoundKind[]; seen: RoomState } {
  if (seen?.matchId !== now.matchId) return { sounds: [], seen: now };
  const sounds: SoundKind[] = [];
  if (now.ended && !seen.ended) sounds.push('end');
  else if (now.myTurn && !seen.myTurn) sounds.push('turn');
  if (now.lowTime && !seen.lowTime) sounds.push('low-time');
  return { sounds, seen: { ...now, lowTime: now.lowTime || seen.lowTime } };
}

/** The sound of one frame of a sowing: a dân dropped, a square taken, a quan taken; null for the others. */
export function frameCue(frame: BoardFrame, previous: BoardFrame | undefined): SoundKind | null {
  if (frame.kind === 'drop') return 'drop';
  if (frame.kind !== 'capture') return null;
  const quanTaken = previous !== undefined && (previous.quan[0] !== frame.quan[0] || previous.quan[1] !== frame.quan[1]);
  return quanTaken ? 'quan' : 'capture';
}
