// Table tests: one ply for each rule of rules.md that one ply can show.

import { describe, expect, it } from 'vitest';
import { RING_12 } from './board.js';
import type { PlyEvent } from './events.js';
import { legalMoves, play } from './play.js';
import { DEFAULT_RULES, type RuleOptions } from './rule-options.js';
import { newGame, stateFromPosition, type State } from './state.js';
import { playAll, playOk, study, type StudyOptions } from './testing/study.js';
import { playTurn } from './turn.js';

function stateWith(state: State, rules: Partial<RuleOptions>): State {
  return stateFromPosition(state.position, { ...state.rules, ...rules });
}

const only = <T extends PlyEvent['type']>(events: readonly PlyEvent[], type: T) =>
  events.filter((e): e is Extract<PlyEvent, { type: T }> => e.type === type);

describe('R1.3 directions and R3.2 sowing', () => {
  it('+1 sows toward higher indices through the mandarin square and the opponent row', () => {
    const { state, events } = playOk(study([0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 1]), { square: 5, dir: 1 });
    expect(events).toEqual([
      { type: 'pickup', square: 5, count: 3 },
      { type: 'drop', square: 6 },
      { type: 'drop', square: 7 },
      { type: 'drop', square: 8 },
    ]);
    expect(state.position.squares).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1]);
  });

  it('−1 for player 1 walks toward lower indices, which is toward their own left', () => {
    const { state } = playOk(study([0, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0], { toMove: 1 }), { square: 8, dir: -1 });
    expect(state.position.squares).toEqual([0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0]);
  });
});

/** Square 6's quan piece captured earlier by player 1, the square left empty. */
const SIX_EMPTIED: StudyOptions = {
  quan: [true, false],
  captured: [
    [0, 0],
    [0, 1],
  ],
};

describe('R3.3 after the last stone', () => {
  it('R3.3b relay: the dân of the next square are taken up and sown on', () => {
    const { state, events } = playOk(study([0, 2, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0]), { square: 1, dir: 1 });
    expect(events).toEqual([
      { type: 'pickup', square: 1, count: 2 },
      { type: 'drop', square: 2 },
      { type: 'drop', square: 3 },
      { type: 'relay', square: 4, count: 3 },
      { type: 'drop', square: 5 },
      { type: 'drop', square: 6 },
      { type: 'drop', square: 7 },
    ]);
    expect(state.position.squares).toEqual([0, 0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0]);
  });

  it('R3.3a a mandarin square next ends the turn, even one holding nothing', () => {
    const squares = [0, 0, 0, 0, 1, 0, 0, 5, 0, 0, 0, 1];
    const { state, events } = playOk(study(squares, SIX_EMPTIED), { square: 4, dir: 1 });
    expect(only(events, 'capture')).toEqual([]);
    expect(state.position.squares).toEqual([0, 0, 0, 0, 0, 1, 0, 5, 0, 0, 0, 1]);
  });

  it('R3.3a emptyQuanIsGap: an empty mandarin square acts as a gap, so the square after it is captured', () => {
    const squares = [0, 0, 0, 0, 1, 0, 0, 5, 0, 0, 0, 1];
    const { state, events } = playOk(study(squares, SIX_EMPTIED, { emptyQuanIsGap: true }), { square: 4, dir: 1 });
    expect(only(events, 'capture')).toEqual([{ type: 'capture', square: 7, dan: 5, quan: false }]);
    expect(state.position.captured[0]).toEqual({ dan: 5, quan: 0 });
  });

  it('R3.3a emptyQuanIsGap: a mandarin square still holding its quan piece ends the turn', () => {
    const { events } = playOk(study([0, 0, 0, 0, 1, 0, 0, 5, 0, 0, 0, 0], {}, { emptyQuanIsGap: true }), {
      square: 4,
      dir: 1,
    });
    expect(only(events, 'capture')).toEqual([]);
  });

  it('R3.3c two empty squares in a row end the turn', () => {
    const { state, events } = playOk(study([0, 1, 0, 0, 0, 0, 0, 5, 5, 5, 5, 5]), { square: 1, dir: 1 });
    expect(events.map((e) => e.type)).toEqual(['pickup', 'drop']);
    expect(state.position.squares).toEqual([0, 0, 1, 0, 0, 0, 0, 5, 5, 5, 5, 5]);
    expect(state.position.toMove).toBe(1);
  });

  it('R3.3c and R3.5 a capture may take from the mover’s own row', () => {
    const { state, events } = playOk(study([0, 1, 0, 0, 4, 1, 0, 5, 0, 0, 0, 0]), { square: 1, dir: 1 });
    expect(only(events, 'capture')).toEqual([{ type: 'capture', square: 4, dan: 4, quan: false }]);
    expect(state.position.squares).toEqual([0, 0, 1, 0, 0, 1, 0, 5, 0, 0, 0, 0]);
  });
});

describe('R3.4 chain', () => {
  const zeroEmptied: StudyOptions = {
    quan: [false, true],
    captured: [
      [0, 0],
      [0, 1],
    ],
  };

  it('runs through an emptied mandarin square as a gap', () => {
    const { state, events } = playOk(study([0, 2, 1, 0, 0, 4, 0, 0, 0, 0, 0, 3], zeroEmptied), { square: 5, dir: 1 });
    expect(only(events, 'capture')).toEqual([
      { type: 'capture', square: 11, dan: 3, quan: false },
      { type: 'capture', square: 1, dan: 2, quan: false },
    ]);
    expect(state.position.squares).toEqual([0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0]);
    expect(state.position.captured[0]).toEqual({ dan: 5, quan: 0 });
  });

  it('stops at a mandarin square that still holds its quan piece (not a gap)', () => {
    const { events } = playOk(study([0, 2, 1, 0, 0, 4, 0, 0, 0, 0, 0, 3]), { square: 5, dir: 1 });
    expect(only(events, 'capture')).toEqual([{ type: 'capture', square: 11, dan: 3, quan: false }]);
  });

  it('stops at the first non-empty square right after a capture', () => {
    // 1> drops on 2; 3 is empty: 4 is captured; 5 is empty: 6 (its quan
    // piece alone) is captured; 7 is not empty: stop.
    const { events } = playOk(study([0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 0, 0]), { square: 1, dir: 1 });
    expect(only(events, 'capture')).toEqual([
      { type: 'capture', square: 4, dan: 2, quan: false },
      { type: 'capture', square: 6, dan: 0, quan: true },
    ]);
  });

  it('stops at two empty squares in a row', () => {
    // As above with square 6 emptied: 5 and 6 are two gaps, so 9 stays.
    const { events } = playOk(study([0, 1, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0], SIX_EMPTIED), { square: 1, dir: 1 });
    expect(only(events, 'capture')).toEqual([{ type: 'capture', square: 4, dan: 2, quan: false }]);
  });
});

describe('R3.6 quan non', () => {
  const chain = [0, 1, 0, 0, 2, 0, 3, 4, 0, 0, 0, 0];

  it('off by default: the mandarin square is captured in mid-chain', () => {
    const { state, events } = playOk(study(chain), { square: 1, dir: 1 });
    expect(only(events, 'capture')).toEqual([
      { type: 'capture', square: 4, dan: 2, quan: false },
      { type: 'capture', square: 6, dan: 3, quan: true },
    ]);
    expect(state.position.captured[0]).toEqual({ dan: 5, quan: 1 });
  });

  it('in mid-chain: the chain stops, earlier captures stand', () => {
    const { state, events } = playOk(study(chain, {}, { quanNon: 5 }), { square: 1, dir: 1 });
    expect(only(events, 'capture')).toEqual([{ type: 'capture', square: 4, dan: 2, quan: false }]);
    expect(state.position.squares).toEqual([0, 0, 1, 0, 0, 0, 3, 4, 0, 0, 0, 0]);
    expect(state.position.quan).toEqual([true, true]);
  });

  it('fewer than n dân protect; n dân do not', () => {
    expect(only(playOk(study(chain, {}, { quanNon: 4 }), { square: 1, dir: 1 }).events, 'capture')).toHaveLength(1);
    expect(only(playOk(study(chain, {}, { quanNon: 3 }), { square: 1, dir: 1 }).events, 'capture')).toHaveLength(2);
  });

  it('at the start of a chain: the turn ends with nothing captured', () => {
    const squares = [0, 0, 0, 1, 0, 0, 3, 2, 0, 0, 0, 0];
    const open = playOk(study(squares), { square: 3, dir: 1 });
    expect(only(open.events, 'capture')).toEqual([{ type: 'capture', square: 6, dan: 3, quan: true }]);
    const { state, events } = playOk(study(squares, {}, { quanNon: 5 }), { square: 3, dir: 1 });
    expect(only(events, 'capture')).toEqual([]);
    expect(state.position.squares).toEqual([0, 0, 0, 0, 1, 0, 3, 2, 0, 0, 0, 0]);
  });
});

describe('R3.2 laps and skipOrigin', () => {
  // 1> drops on 2, then relays the 12 dân of square 3 round the ring.
  const squares = [0, 1, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0];
  const relayLap = (events: readonly PlyEvent[]) => {
    const start = events.findIndex((e) => e.type === 'relay');
    return events.slice(start + 1, start + 13).map((e) => (e.type === 'drop' ? e.square : e.type));
  };

  it('by default a lap drops on the square the handful came from', () => {
    const { state, events } = playOk(study(squares), { square: 1, dir: 1 });
    expect(relayLap(events)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3]);
    expect(state.position.squares).toEqual([1, 1, 2, 1, 0, 2, 1, 1, 1, 1, 1, 1]);
  });

  it('skipOrigin skips the square of the current handful, a relay’s included', () => {
    const { state, events } = playOk(study(squares, {}, { skipOrigin: true }), { square: 1, dir: 1 });
    expect(relayLap(events)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 4]);
    expect(state.position.captured[0]).toEqual({ dan: 13, quan: 2 });
    expect(state.position.squares).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('R3.7 every turn ends', () => {
  it('the guard throws, as for a bug, never ending the game', () => {
    // No legal position holds this many dân; only a broken board could.
    const broken = [0, 5000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    expect(() => playTurn(RING_12, broken, 3, 1, 1, DEFAULT_RULES, null)).toThrow(/R3\.7/);
  });

  it('a handful of all 50 dân ends, the dân conserved', () => {
    for (const skipOrigin of [false, true]) {
      for (const dir of [1, -1] as const) {
        const { state } = playOk(study([0, 0, 0, 50, 0, 0, 0, 0, 0, 0, 0, 0], {}, { skipOrigin }), { square: 3, dir });
        const { squares, captured } = state.position;
        expect(squares.reduce((a, b) => a + b, 0) + captured[0].dan + captured[1].dan).toBe(50);
      }
    }
  });
});

describe('R4.1 and R4.2 end check', () => {
  // 3< drops on 2; 1 is empty: square 0 (its quan piece alone) is captured;
  // 11 and 10 are empty: the chain stops. Square 6's quan piece is gone.
  const lastQuan = (mandarin6: number, player1Stock: number) =>
    study([0, 0, 0, 1, 5, 0, mandarin6, 0, 0, 0, 0, 0], {
      quan: [true, false],
      captured: [
        [20, 0],
        [player1Stock, 1],
      ],
    });

  it('both mandarin squares empty: the game ends (quan-gone), before any refill', () => {
    const { state, events } = playOk(lastQuan(0, 24), { square: 3, dir: -1 });
    expect(state.position.ply).toBe(1);
    expect(state.position.toMove).toBe(1);
    expect(state.position.status).toBe('ended');
    expect(state.position.result).toEqual({ reason: 'quan-gone', score: [36, 34], winner: 0 });
    expect(only(events, 'refill')).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'end', reason: 'quan-gone', score: [36, 34], winner: 0 });
    expect(legalMoves(state)).toEqual([]);
    expect(play(state, { square: 7, dir: 1 })).toEqual({ ok: false, code: 'ERR_GAME_OVER' });
  });

  it('quan-squares-empty: dân left in a mandarin square keep the game going', () => {
    const { state } = playOk(lastQuan(3, 21), { square: 3, dir: -1 });
    expect(state.position.status).toBe('playing');
    expect(state.position.quan).toEqual([false, false]);
  });

  it('quan-pieces-captured: the game ends once both quan pieces are taken', () => {
    const { state } = playOk(stateWith(lastQuan(3, 21), { endWhen: 'quan-pieces-captured' }), { square: 3, dir: -1 });
    // The odd dân of the mandarin squares counts for nobody (R5.1).
    expect(state.position.result).toEqual({ reason: 'quan-gone', score: [37, 32], winner: 0 });
  });
});

describe('R4.3 refill', () => {
  // 1< drops on 0; 11 and 10 are empty: nothing happens, and player 1,
  // whose row is empty, must refill.
  const emptyRow = (stock0: number, stock1: number) =>
    study([4, 1, 5, 5, 5, 5, 4, 0, 0, 0, 0, 0], {
      captured: [
        [stock0, 0],
        [stock1, 0],
      ],
    });

  it('from the player’s own captured dân', () => {
    const { state, events } = playOk(emptyRow(12, 9), { square: 1, dir: -1 });
    expect(state.position.squares).toEqual([5, 0, 5, 5, 5, 5, 4, 1, 1, 1, 1, 1]);
    expect(state.position.captured).toEqual([
      { dan: 12, quan: 0 },
      { dan: 4, quan: 0 },
    ]);
    expect(state.position.debt).toEqual([0, 0]);
    expect(only(events, 'refill')).toEqual([{ type: 'refill', player: 1, squares: [7, 8, 9, 10, 11], own: 5, borrowed: 0 }]);
  });

  it('borrowing the shortfall from the opponent, recorded as debt', () => {
    const { state, events } = playOk(emptyRow(19, 2), { square: 1, dir: -1 });
    expect(state.position.squares.slice(7)).toEqual([1, 1, 1, 1, 1]);
    expect(state.position.captured).toEqual([
      { dan: 16, quan: 0 },
      { dan: 0, quan: 0 },
    ]);
    expect(state.position.debt).toEqual([0, 3]);
    expect(only(events, 'refill')).toEqual([{ type: 'refill', player: 1, squares: [7, 8, 9, 10, 11], own: 2, borrowed: 3 }]);
  });

  it('partially, in ascending index order, when fewer than 5 dân can be found', () => {
    const { state, events } = playOk(emptyRow(2, 1), { square: 1, dir: -1 });
    expect(state.position.squares.slice(7)).toEqual([1, 1, 1, 0, 0]);
    expect(state.position.captured).toEqual([
      { dan: 0, quan: 0 },
      { dan: 0, quan: 0 },
    ]);
    expect(state.position.debt).toEqual([0, 2]);
    expect(only(events, 'refill')).toEqual([{ type: 'refill', player: 1, squares: [7, 8, 9], own: 1, borrowed: 2 }]);
    expect(legalMoves(state).map((m) => m.square)).toEqual([7, 7, 8, 8, 9, 9]);
  });

  it('not at all: the game ends (no-refill), the board as it stood', () => {
    const { state, events } = playOk(emptyRow(0, 0), { square: 1, dir: -1 });
    expect(state.position.squares).toEqual([5, 0, 5, 5, 5, 5, 4, 0, 0, 0, 0, 0]);
    // R5: 20 on player 0's row, 9 in the mandarin squares split 4 and 4.
    expect(state.position.result).toEqual({ reason: 'no-refill', score: [24, 4], winner: 0 });
    expect(events.map((e) => e.type)).toEqual(['pickup', 'drop', 'end']);
  });
});

describe('R4.4 move limit', () => {
  it('ends the game when the ply count reaches plyLimit', () => {
    const { state } = playOk(newGame({ rules: { plyLimit: 1 } }), { square: 2, dir: 1 });
    // R9 E3's board: 6 captured + 12 + 6 on player 0's row, 24 on player 1's,
    // 2 in the mandarin squares split 1 and 1; quan pieces on the board count
    // for nobody.
    expect(state.position.result).toEqual({ reason: 'ply-limit', score: [25, 25], winner: null });
  });

  it('comes after the refill, which the ended position shows', () => {
    const state = study([4, 1, 5, 5, 5, 5, 4, 0, 0, 0, 0, 0], { captured: [[19, 0], [2, 0]], ply: 9 }, { plyLimit: 10 });
    const after = playOk(state, { square: 1, dir: -1 });
    expect(after.state.position.squares.slice(7)).toEqual([1, 1, 1, 1, 1]);
    expect(after.state.position.result?.reason).toBe('ply-limit');
    expect(after.events.map((e) => e.type)).toEqual(['pickup', 'drop', 'refill', 'end']);
  });

  it('does not end the game before', () => {
    const { state } = playOk(newGame({ rules: { plyLimit: 2 } }), { square: 2, dir: 1 });
    expect(state.position.status).toBe('playing');
  });
});

describe('R4.5 repetition', () => {
  // Both quan pieces captured, the mandarin squares still holding dân: two
  // single stones can shuttle back and forth, one cycle every 4 plies.
  const shuttle = () =>
    study([10, 1, 0, 0, 0, 0, 10, 1, 0, 0, 0, 0], {
      quan: [false, false],
      captured: [
        [14, 1],
        [14, 1],
      ],
    });
  const cycle = [
    { square: 1, dir: 1 },
    { square: 7, dir: 1 },
    { square: 2, dir: -1 },
    { square: 8, dir: -1 },
  ] as const;

  it('the start counts: the third occurrence ends the game', () => {
    const twice = playAll(shuttle(), cycle);
    expect(twice.position.squares).toEqual(shuttle().position.squares);
    expect(twice.position.status).toBe('playing');
    expect(twice.history.count).toBe(2);
    const thrice = playAll(twice, cycle.slice(0, 3));
    expect(thrice.position.status).toBe('playing');
    const { state, events } = playOk(thrice, cycle[3]);
    expect(state.position.ply).toBe(8);
    expect(state.position.result).toEqual({ reason: 'repetition', score: [35, 35], winner: null });
    expect(events.at(-1)).toEqual({ type: 'end', reason: 'repetition', score: [35, 35], winner: null });
  });

  it('a branch from an earlier state counts only its own line', () => {
    const start = shuttle();
    const twice = playAll(start, cycle);
    playAll(twice, cycle.slice(0, 3));
    // Replaying the first cycle from the start again: the abandoned line
    // above does not count.
    const again = playAll(start, cycle);
    expect(again.history.count).toBe(2);
    expect(playAll(again, cycle).position.result?.reason).toBe('repetition');
  });
});

describe('R5 scoring', () => {
  it('counts captured dân and quan, own row, half the mandarin dân, and both debts', () => {
    // Player 1 owes 3: after ending, player 0 gains 3 and player 1 loses 3.
    const state = study([3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0], {
      quan: [true, false],
      captured: [
        [20, 0],
        [24, 1],
      ],
      debt: [0, 3],
    });
    // 1< drops on 0: 11 is empty, 10 (2 dân) is captured; 9, 8 empty: stop.
    // Player 1's row is now empty and refills 5 from their own stock.
    const { state: after } = playOk(state, { square: 1, dir: -1 });
    expect(after.position.squares).toEqual([4, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
    const ended = playOk(stateWith(after, { plyLimit: 2 }), { square: 7, dir: -1 });
    // 7< drops on 6; 5 is empty, 4 is empty: stop. Then the ply limit.
    // Player 0: 22 + 0 + 0 (row) + 2 (half of 4 + 1) + 3 = 27
    // Player 1: 19 + 10 + 4 (row) + 2 − 3 = 32
    expect(ended.state.position.result).toEqual({ reason: 'ply-limit', score: [27, 32], winner: 1 });
  });

  it('quanValue 5 makes a quan piece worth 5', () => {
    const { state } = playOk(newGame({ rules: { quanValue: 5, plyLimit: 1 } }), { square: 1, dir: -1 });
    // R9 E1 under quanValue 5: 1 dân + 5 + 24 on the row; the odd dân in
    // square 6 counts for nobody.
    expect(state.position.result?.score).toEqual([30, 24]);
  });
});
