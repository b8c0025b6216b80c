// R10.11 the worked example, and R10.5–R10.8 on small studies: order, end
// check, refill lenders with and without teams, scoring and ranking.

import { describe, expect, it } from 'vitest';
import type { FourPlyEvent } from './four-events.js';
import { fourLegalMoves, fourPlay } from './four-play.js';
import type { Four, FourPosition } from './four-position.js';
import type { FourRulesInput } from './four-rules.js';
import { fourStateFromPosition, newFourGame, type FourState } from './four-state.js';
import type { Move } from './moves.js';

const FREE: FourRulesInput = { players: 4 };
const TEAMS: FourRulesInput = { players: 4, teams: 2 };

function playOk(state: FourState, move: Move): { state: FourState; events: readonly FourPlyEvent[] } {
  const result = fourPlay(state, move);
  if (!result.ok) throw new Error(`move ${JSON.stringify(move)} refused: ${result.code}`);
  return result;
}

function study(squares: number[], options: Partial<FourPosition> = {}, rules: FourRulesInput = FREE): FourState {
  const position: FourPosition = {
    squares,
    quan: [true, true, true, true],
    captured: [0, 1, 2, 3].map(() => ({ dan: 0, quan: 0 })) as unknown as FourPosition['captured'],
    debt: [0, 1, 2, 3].map(() => [0, 0, 0, 0]) as unknown as FourPosition['debt'],
    toMove: 0,
    ply: 0,
    status: 'playing',
    result: null,
    ...options,
  };
  return fourStateFromPosition(position, rules);
}

const stocks = (...dan: number[]) => dan.map((d) => ({ dan: d, quan: 0 })) as unknown as FourPosition['captured'];

describe('R10.11 worked example', () => {
  it('player 0 plays 1< from the start: relays from 19, 13 and 7, captures square 0, player 1 moves', () => {
    const { state, events } = playOk(newFourGame({ rules: FREE }), { square: 1, dir: -1 });
    const p = state.position;
    expect(p.squares).toEqual([0, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6]);
    expect(p.quan).toEqual([false, true, true, true]);
    expect(p.captured[0]).toEqual({ dan: 1, quan: 1 });
    expect(p.toMove).toBe(1);
    expect(p.ply).toBe(1);
    expect(events.filter((e) => e.type === 'relay').map((e) => e.square)).toEqual([19, 13, 7]);
    expect(events.filter((e) => e.type === 'capture')).toEqual([{ type: 'capture', square: 0, dan: 1, quan: true }]);
    // The first handful falls on 0, 23, 22, 21, 20.
    expect(events.slice(1, 6).map((e) => (e.type === 'drop' ? e.square : null))).toEqual([0, 23, 22, 21, 20]);
  });
});

describe('R10.2, R10.5 board and order', () => {
  it('each player sows only their own side, and the turn passes to the right', () => {
    let state = newFourGame({ rules: FREE, first: 2 });
    expect(fourLegalMoves(state).map((m) => m.square)).toEqual([13, 13, 14, 14, 15, 15, 16, 16, 17, 17]);
    expect(fourPlay(state, { square: 1, dir: 1 })).toEqual({ ok: false, code: 'ERR_NOT_YOUR_SQUARE' });
    expect(fourPlay(state, { square: 24, dir: 1 })).toEqual({ ok: false, code: 'ERR_BAD_MOVE' });
    const order: number[] = [];
    for (let i = 0; i < 5; i++) {
      order.push(state.position.toMove);
      state = playOk(state, fourLegalMoves(state)[0]!).state;
    }
    expect(order).toEqual([2, 3, 0, 1, 2]);
  });
});

describe('R10.6 end check and refill', () => {
  it('captures the last quan piece and ends with quan-gone; scores add up to 140', () => {
    const squares = Array<number>(24).fill(0);
    // Player 3's 3> drops on 22; 23 is empty: square 0 (its quan alone) is
    // captured, then, past the gap on 1, square 2 (R3.4).
    squares[21] = 1;
    squares[2] = 1;
    const state = study(squares, {
      quan: [true, false, false, false],
      captured: [
        { dan: 28, quan: 1 },
        { dan: 30, quan: 1 },
        { dan: 20, quan: 1 },
        { dan: 20, quan: 0 },
      ],
      toMove: 3,
    });
    const { state: next, events } = playOk(state, { square: 21, dir: 1 });
    const p = next.position;
    expect(p.status).toBe('ended');
    expect(p.result!.reason).toBe('quan-gone');
    expect(p.captured[3]).toEqual({ dan: 21, quan: 1 });
    // Scores: 0: 28 + 10; 1: 30 + 10; 2: 20 + 10; 3: 21 + 10 + row 1 (square 22).
    expect(p.result!.score).toEqual([38, 40, 30, 32]);
    expect(p.result!.score.reduce((a, b) => a + b, 0)).toBe(140);
    expect(p.result!.ranking).toEqual([2, 1, 4, 3]);
    expect(p.result!.winner).toBe(1);
    expect(p.result).not.toHaveProperty('teamScore');
    expect(events.at(-1)).toEqual({ type: 'end', result: p.result });
  });

  const emptyRowNext = (rules: FourRulesInput, captured: FourPosition['captured']) => {
    // Player 0 plays 1< (one dân onto 0, a mandarin square): the turn ends,
    // and player 1's row (7–11) is empty.
    const squares = Array<number>(24).fill(0);
    squares[1] = 1;
    squares[14] = 3;
    squares[20] = 3;
    return playOk(study(squares, { captured }, rules), { square: 1, dir: -1 });
  };

  it('free for all: own stock first, then the next players in turn order, each loan a debt to its lender', () => {
    const { state, events } = emptyRowNext(FREE, stocks(3, 1, 1, 9));
    const p = state.position;
    expect(p.squares.slice(7, 12)).toEqual([1, 1, 1, 1, 1]);
    // Player 1 owns 1, then borrows from 2 (1), 3 (3 of 9); player 0 is not reached.
    expect(p.captured.map((s) => s.dan)).toEqual([3, 0, 0, 6]);
    expect(p.debt).toEqual([
      [0, 0, 0, 0],
      [0, 0, 1, 3],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
    expect(events.find((e) => e.type === 'refill')).toEqual({
      type: 'refill',
      player: 1,
      squares: [7, 8, 9, 10, 11],
      own: 1,
      borrowed: 4,
      loans: [
        { from: 2, dan: 1 },
        { from: 3, dan: 3 },
      ],
    });
  });

  it('teams: the partner lends first, then the opponents from the mover on', () => {
    const { state } = emptyRowNext(TEAMS, stocks(3, 0, 1, 9));
    // Player 1's partner is 3 (lends 5 of 9); 2 and 0 are not reached.
    expect(state.position.captured.map((s) => s.dan)).toEqual([3, 0, 1, 4]);
    expect(state.position.debt[1]).toEqual([0, 0, 0, 5]);
    const short = emptyRowNext(TEAMS, stocks(3, 0, 1, 2)).state.position;
    // Partner 3 gives 2, then opponent 2 (p + 1) gives 1, then 0 (p + 3) gives 2 of 3.
    expect(short.debt[1]).toEqual([2, 0, 1, 2]);
    expect(short.captured.map((s) => s.dan)).toEqual([1, 0, 0, 0]);
  });

  it('a row that nobody can refill ends the game for all four (no-refill)', () => {
    const { state } = emptyRowNext(FREE, stocks(0, 0, 0, 0));
    expect(state.position.status).toBe('ended');
    expect(state.position.result!.reason).toBe('no-refill');
    expect(state.position.squares.slice(7, 12)).toEqual([0, 0, 0, 0, 0]);
  });

  it('a partial refill fills the row in ascending order as far as it goes', () => {
    const { state } = emptyRowNext(FREE, stocks(0, 1, 0, 2));
    expect(state.position.squares.slice(7, 12)).toEqual([1, 1, 1, 0, 0]);
  });
});

describe('R10.6 repetition', () => {
  it('ends the game when a state of the board, stocks, debts and mover occurs for the third time', () => {
    // Each player shuttles one dân between their squares 2 and 1: 2< stops
    // before their left mandarin square (R3.3a), 1> stops before two empty
    // squares (R3.3c). Every 8 plies the start comes back.
    const squares = Array<number>(24).fill(0);
    for (const p of [0, 1, 2, 3]) squares[6 * p + 2] = 1;
    let state = study(squares);
    for (let ply = 1; ply <= 16; ply++) {
      const mover = state.position.toMove;
      const move = state.position.squares[6 * mover + 2] === 1 ? { square: 6 * mover + 2, dir: -1 as const } : { square: 6 * mover + 1, dir: 1 as const };
      state = playOk(state, move).state;
      expect(state.position.status).toBe(ply === 16 ? 'ended' : 'playing');
    }
    expect(state.position.result!.reason).toBe('repetition');
    expect(state.position.squares).toEqual(squares);
  });
});

describe('R10.7, R10.8 scoring', () => {
  it('debts count gross; the mandarin dân are shared in quarters; teams add partners', () => {
    const squares = Array<number>(24).fill(0);
    squares[0] = 3;
    squares[6] = 2;
    squares[12] = 1;
    squares[18] = 1; // 7 in the mandarin squares: 1 each, 3 for nobody
    squares[1] = 2;
    const debt: Four<Four<number>> = [
      [0, 2, 0, 0],
      [3, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ];
    // Player 0 plays 1> … drops on 2, 3; 4 is empty, 5 is empty: the turn ends. Then ply-limit ends the game.
    const state = study(squares, { debt, captured: stocks(5, 5, 5, 5) }, { players: 4, teams: 2, plyLimit: 1 });
    const { result } = playOk(state, { square: 1, dir: 1 }).state.position;
    expect(result!.reason).toBe('ply-limit');
    // 0: 5 + row 2 + 1 − 2 + 3 = 9; 1: 5 + 0 + 1 − 3 + 2 = 5; 2: 6; 3: 6.
    expect(result!.score).toEqual([9, 5, 6, 6]);
    expect(result!.ranking).toEqual([1, 4, 2, 2]);
    expect(result!.teamScore).toEqual([15, 11]);
    expect(result!.winningTeam).toBe(0);
  });
});
