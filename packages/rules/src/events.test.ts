// The events of a ply are enough to animate it: applied one by one to the
// position before, they give exactly the position after.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Player } from './board.js';
import type { PlyEvent } from './events.js';
import { legalMoves, play } from './play.js';
import type { Position } from './position.js';
import { PRESETS, resolveRules } from './rule-options.js';
import { newGame, type State } from './state.js';

/** What a client animating the events would do. */
function animate(before: Position, events: readonly PlyEvent[]): Position {
  const squares = [...before.squares];
  const quan: [boolean, boolean] = [before.quan[0], before.quan[1]];
  const captured: [{ dan: number; quan: number }, { dan: number; quan: number }] = [{ ...before.captured[0] }, { ...before.captured[1] }];
  const debt: [number, number] = [before.debt[0], before.debt[1]];
  const mover = before.toMove;
  let hand = 0;
  let result: Position['result'] = null;
  for (const event of events) {
    switch (event.type) {
      case 'pickup':
      case 'relay':
        expect(squares[event.square]).toBe(event.count);
        hand += event.count;
        squares[event.square] = 0;
        break;
      case 'drop':
        expect(hand).toBeGreaterThan(0);
        hand--;
        squares[event.square]!++;
        break;
      case 'capture':
        expect(hand).toBe(0);
        expect(squares[event.square]).toBe(event.dan);
        squares[event.square] = 0;
        captured[mover].dan += event.dan;
        if (event.quan) {
          quan[event.square === 0 ? 0 : 1] = false;
          captured[mover].quan++;
        }
        break;
      case 'refill': {
        const lender = (1 - event.player) as Player;
        event.squares.forEach((square) => (squares[square] = 1));
        expect(event.squares).toHaveLength(event.own + event.borrowed);
        captured[event.player].dan -= event.own;
        captured[lender].dan -= event.borrowed;
        debt[event.player] += event.borrowed;
        break;
      }
      case 'end':
        result = { reason: event.reason, score: event.score, winner: event.winner };
        break;
    }
  }
  expect(hand).toBe(0);
  return {
    squares,
    quan,
    captured: [captured[0], captured[1]],
    debt,
    toMove: mover === 0 ? 1 : 0,
    ply: before.ply + 1,
    status: result === null ? 'playing' : 'ended',
    result,
  };
}

describe('ply events', () => {
  it('come in order (pickup, sowing, captures, refill, end) and rebuild the position after', () => {
    const order = ['pickup', 'sow', 'capture', 'refill', 'end'];
    const stage = (e: PlyEvent) => (e.type === 'drop' || e.type === 'relay' ? 'sow' : e.type);
    fc.assert(
      fc.property(
        fc.constantFrom(PRESETS.classic, PRESETS.vietnam, resolveRules({ skipOrigin: true, endWhen: 'quan-pieces-captured' })),
        fc.array(fc.nat(), { maxLength: 400 }),
        (rules, choices) => {
          let state: State = newGame({ rules });
          for (let i = 0; state.position.status === 'playing'; i++) {
            const legal = legalMoves(state);
            const result = play(state, legal[(choices[i] ?? i) % legal.length]!);
            if (!result.ok) throw new Error(result.code);
            const stages = result.events.map(stage);
            expect(stages[0]).toBe('pickup');
            expect(stages.map((s) => order.indexOf(s))).toEqual([...stages.map((s) => order.indexOf(s))].sort((a, b) => a - b));
            expect(JSON.parse(JSON.stringify(animate(state.position, result.events)))).toEqual(
              JSON.parse(JSON.stringify(result.state.position)),
            );
            state = result.state;
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
