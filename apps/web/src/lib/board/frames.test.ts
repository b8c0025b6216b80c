import { describe, expect, it } from 'vitest';
import { legalMoves, newGame, play, stateFromPosition, type PlyEvent, type Position, type State } from '@oanquan/rules';
import { eventFrames, sowingFrames } from './frames.js';

/** Every ply of a whole game chosen by a seeded generator: its events, their frames and the position after. */
function playOut(seed: number, rules = {}) {
  let state: State = newGame({ rules, first: (seed % 2) as 0 | 1 });
  let x = seed;
  const plies: Array<{ after: Position; events: readonly PlyEvent[]; frames: ReturnType<typeof eventFrames> }> = [];
  while (state.position.status === 'playing') {
    const legal = legalMoves(state);
    x = (x * 1103515245 + 12345) % 2147483648;
    const result = play(state, legal[x % legal.length]!);
    if (!result.ok) throw new Error(result.code);
    plies.push({ after: result.state.position, events: result.events, frames: eventFrames(state.position, result.events) });
    state = result.state;
  }
  return plies;
}

describe('eventFrames', () => {
  it('shows R9 E1 stone by stone: pick-up, five drops, relay, five drops, capture', () => {
    const start = newGame().position;
    const result = play(newGame(), { square: 1, dir: -1 });
    if (!result.ok) throw new Error(result.code);
    const frames = eventFrames(start, result.events);
    expect(frames.map((f) => f.kind)).toEqual([
      'pickup', 'drop', 'drop', 'drop', 'drop', 'drop', 'relay', 'drop', 'drop', 'drop', 'drop', 'drop', 'capture',
    ]);
    expect(frames[0]).toMatchObject({ hand: 5, focus: 1, squares: [0, 0, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5] });
    expect(frames[1]).toMatchObject({ hand: 4, focus: 0, squares: [1, 0, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5] });
    expect(frames[6]).toMatchObject({ kind: 'relay', hand: 5, focus: 7 });
    expect(frames.at(-1)).toMatchObject({
      squares: [0, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6],
      quan: [false, true],
      captured: [{ dan: 1, quan: 1 }, { dan: 0, quan: 0 }],
      hand: 0,
    });
  });

  it('ends on the rules’ own position after every ply of whole games, refills and captures included', () => {
    let refills = 0;
    let captures = 0;
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      for (const { after, events, frames } of playOut(seed, seed % 2 ? {} : { quanNon: 5, emptyQuanIsGap: true })) {
        const last = frames.at(-1)!;
        expect(last.squares).toEqual(after.squares);
        expect(last.quan).toEqual(after.quan);
        expect(last.captured).toEqual(after.captured);
        refills += events.filter((e) => e.type === 'refill').length;
        captures += events.filter((e) => e.type === 'capture').length;
      }
    }
    expect(refills).toBeGreaterThan(0);
    expect(captures).toBeGreaterThan(0);
  });

  it('makes one frame per dân dropped', () => {
    const position = stateFromPosition({
      squares: [0, 0, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0],
      quan: [true, true],
      captured: [{ dan: 0, quan: 0 }, { dan: 0, quan: 0 }],
      debt: [0, 0],
      toMove: 0,
      ply: 0,
      status: 'playing',
      result: null,
    });
    const result = play(position, { square: 5, dir: 1 });
    if (!result.ok) throw new Error(result.code);
    const frames = eventFrames(position.position, result.events);
    expect(frames.filter((f) => f.kind === 'drop')).toHaveLength(12);
    expect(frames.at(-1)!.squares).toEqual(Array(12).fill(1));
  });
});

describe('sowingFrames', () => {
  it('comes to rest on the given position', () => {
    const state = newGame();
    const result = play(state, { square: 2, dir: 1 });
    if (!result.ok) throw new Error(result.code);
    const frames = sowingFrames(state.position, result.events, result.state.position);
    expect(frames.at(-1)).toMatchObject({ squares: result.state.position.squares, hand: 0, kind: 'capture' });
  });
});
