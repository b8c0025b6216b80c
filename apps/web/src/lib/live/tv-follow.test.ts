import { describe, expect, it } from 'vitest';
import { followTop } from './tv-follow.js';

const games = (...codes: string[]) => codes.map((roomCode) => ({ roomCode }));

describe('followTop', () => {
  it('starts on the best game, and on none while nothing is played', () => {
    expect(followTop({ code: null, leftAt: null }, games('best', 'next'), 0, 5000)).toEqual({ code: 'best', leftAt: null });
    expect(followTop({ code: null, leftAt: null }, [], 0, 5000)).toEqual({ code: null, leftAt: null });
  });

  it('stays on its game while it is played, even when another becomes the best', () => {
    expect(followTop({ code: 'mine', leftAt: null }, games('better', 'mine'), 1000, 5000)).toEqual({ code: 'mine', leftAt: null });
  });

  it('shows an ended game a moment, then moves on to the best game then', () => {
    const ended = followTop({ code: 'mine', leftAt: null }, games('next'), 1000, 5000);
    expect(ended).toEqual({ code: 'mine', leftAt: 1000 });
    expect(followTop(ended, games('next'), 5999, 5000)).toEqual({ code: 'mine', leftAt: 1000 });
    expect(followTop(ended, games('next'), 6000, 5000)).toEqual({ code: 'next', leftAt: null });
  });
});
