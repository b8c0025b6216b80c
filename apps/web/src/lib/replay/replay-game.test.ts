import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, legalMoves, newGame, play, replay, type Move } from '@oanquan/rules';
import { buildReplay } from './replay-game.js';

function someGame(): Move[] {
  let state = newGame({ first: 1 });
  const moves: Move[] = [];
  while (state.position.status === 'playing' && moves.length < 30) {
    const legal = legalMoves(state);
    const move = legal[(moves.length * 7) % legal.length]!;
    const result = play(state, move);
    if (!result.ok) throw new Error(result.code);
    state = result.state;
    moves.push(move);
  }
  return moves;
}

describe('buildReplay', () => {
  const moves = someGame();
  const record = {
    rules: DEFAULT_RULES,
    first: 1 as const,
    moves: moves.map((m, i) => ({ ...m, ply: i + 1, seat: ((1 + i) % 2) as 0 | 1, notation: '', remainingMs: null, at: '', clockStartsAt: null })),
  };

  it('gives the rules’ own positions, and frames that end on each of them', () => {
    const built = buildReplay(record);
    const expected = replay({ rules: DEFAULT_RULES, first: 1 }, moves);
    if (!built.ok || !expected.ok) throw new Error('not replayed');
    expect(built.game.positions).toEqual(expected.positions);
    built.game.frames.forEach((frames, i) => expect(frames.at(-1)!.squares).toEqual(expected.positions[i + 1]!.squares));
  });

  it('reports the first move the rules refuse', () => {
    const bad = { ...record, moves: [record.moves[0]!, { ...record.moves[1]!, square: 9 }] };
    expect(buildReplay(bad)).toEqual({ ok: false, ply: 2, code: 'ERR_NOT_YOUR_SQUARE' });
  });
});
