import { newGame, play, type PlyEvent, type Position, type RuleOptions } from '@oanquan/rules';
import type { PlayedMove, Seat } from '@oanquan/protocol';
import { sowingFrames, type BoardFrame } from '../board/frames.js';

export interface ReplayGame {
  /** positions[i]: after i moves. */
  readonly positions: readonly Position[];
  /** frames[i]: move i + 1 stone by stone; its last frame is positions[i + 1]. */
  readonly frames: readonly (readonly BoardFrame[])[];
  readonly events: readonly (readonly PlyEvent[])[];
}

export type ReplayBuild = { ok: true; game: ReplayGame } | { ok: false; ply: number; code: string };

/** Plays a match's moves again with the rules, keeping every ply's events for stone-by-stone viewing and for words. */
export function buildReplay(record: {
  readonly rules: RuleOptions;
  readonly first: Seat | null;
  readonly moves: readonly Pick<PlayedMove, 'ply' | 'square' | 'dir'>[];
}): ReplayBuild {
  let state = newGame({ rules: record.rules, first: record.first ?? 0 });
  const positions: Position[] = [state.position];
  const frames: BoardFrame[][] = [];
  const events: PlyEvent[][] = [];
  for (const move of record.moves) {
    const result = play(state, { square: move.square, dir: move.dir });
    if (!result.ok) return { ok: false, ply: move.ply, code: result.code };
    frames.push(sowingFrames(state.position, result.events, result.state.position));
    events.push([...result.events]);
    state = result.state;
    positions.push(state.position);
  }
  return { ok: true, game: { positions, frames, events } };
}
