// A position whose exact endgame lines run as long as the ply limit lets
// them: six dân on the board, both quan pieces still there (50 dân in all),
// so refills (R4.3) keep the game going. Under a ply limit of 10,000 (R4.4
// allows it) a solver that recursed to the end of the game overflowed a
// 1 MB stack, a browser worker's; the engine's tests and the web's engine
// worker test play level 8 here.

import type { Position } from '@oanquan/rules';

export const SIX_DAN_ENDGAME: Position = {
  squares: [0, 1, 0, 2, 0, 0, 0, 0, 1, 0, 2, 0],
  quan: [true, true],
  captured: [
    { dan: 20, quan: 0 },
    { dan: 24, quan: 0 },
  ],
  debt: [0, 0],
  toMove: 0,
  ply: 0,
  status: 'playing',
  result: null,
};

/** The largest ply limit the rules allow (R4.4). */
export const LONGEST_PLY_LIMIT = 10_000;
