import { describe, expect, it } from 'vitest';
import { newGame, type PlyEvent } from '@oanquan/rules';
import { eventFrames } from '../board/frames.js';
import { frameCue, roomCues, type RoomState } from './cues.js';

const at = (changes: Partial<RoomState> = {}): RoomState => ({ matchId: 'm1', myTurn: false, ended: false, lowTime: false, ...changes });

/** Runs a room through its moments and collects every sound due. */
function heard(moments: RoomState[]): string[] {
  let seen: RoomState | null = null;
  const sounds: string[] = [];
  for (const moment of moments) {
    const cues = roomCues(seen, moment);
    seen = cues.seen;
    sounds.push(...cues.sounds);
  }
  return sounds;
}

describe('the sounds of a room', () => {
  it('sounds a turn, low time and the end when they come, not for the state a page opens on', () => {
    expect(heard([at({ myTurn: true, lowTime: true })])).toEqual([]);
    expect(heard([at(), at({ myTurn: true }), at(), at({ myTurn: true })])).toEqual(['turn', 'turn']);
    expect(heard([at({ myTurn: true }), at({ ended: true })])).toEqual(['end']);
  });

  it('sounds low time once a match, not again at each turn, and again in the next match', () => {
    const moments = [at(), at({ myTurn: true, lowTime: true }), at(), at({ myTurn: true, lowTime: true }), at({ matchId: 'm2' }), at({ matchId: 'm2', lowTime: true })];
    expect(heard(moments)).toEqual(['turn', 'low-time', 'turn', 'low-time']);
  });

  it('tells a dân dropped, a square taken and a quan taken apart', () => {
    const before = newGame({ first: 0 }).position;
    const events: PlyEvent[] = [
      { type: 'pickup', square: 4, count: 1 },
      { type: 'drop', square: 5 },
      { type: 'capture', square: 7, dan: 5, quan: false },
      { type: 'capture', square: 6, dan: 0, quan: true },
      { type: 'capture', square: 6, dan: 2, quan: false },
    ];
    const frames = eventFrames(before, events);
    expect(frames.map((frame, i) => frameCue(frame, frames[i - 1]))).toEqual([null, 'drop', 'capture', 'quan', 'capture']);
  });
});
