// R10.1 two teams on the classic board: the two-player game, members
// alternating within each side.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Player } from './board.js';
import { legalMoves, playFast } from './play.js';
import { replay } from './replay.js';
import { newGame, type State } from './state.js';
import { arbitraryRules } from './testing/arbitrary-rules.js';
import { teamSeatAt, type Member } from './two-teams.js';

describe('R10.1 who makes a side’s move', () => {
  it('follows A1, B1, A2, B2, A1, … from the first mover', () => {
    const seats = Array.from({ length: 6 }, (_, ply) => teamSeatAt(1, [0, 1], ply));
    expect(seats).toEqual([
      { side: 1, member: 1 },
      { side: 0, member: 0 },
      { side: 1, member: 0 },
      { side: 0, member: 1 },
      { side: 1, member: 1 },
      { side: 0, member: 0 },
    ]);
    expect(() => teamSeatAt(0, [0, 0], -1)).toThrow(RangeError);
  });

  it('random games: the position is the two-player game’s, the members of each side alternate, and the team score is the side’s', () => {
    fc.assert(
      fc.property(
        arbitraryRules,
        fc.constantFrom<Player>(0, 1),
        fc.tuple(fc.constantFrom<Member>(0, 1), fc.constantFrom<Member>(0, 1)),
        fc.array(fc.nat(), { maxLength: 200 }),
        (rules, first, startMembers, choices) => {
          let state: State = newGame({ rules, first });
          const moves = [];
          const lastMember: (Member | null)[] = [null, null];
          for (let ply = 0; state.position.status === 'playing'; ply++) {
            const seat = teamSeatAt(first, startMembers, ply);
            // The side that moves is the rules' mover: the team plays the side.
            expect(seat.side).toBe(state.position.toMove);
            if (lastMember[seat.side] !== null) expect(seat.member).toBe(1 - lastMember[seat.side]!);
            else expect(seat.member).toBe(startMembers[seat.side]);
            lastMember[seat.side] = seat.member;
            const legal = legalMoves(state);
            const move = legal[(choices[ply % Math.max(1, choices.length)] ?? 0) % legal.length]!;
            moves.push(move);
            state = playFast(state, move) as State;
          }
          const replayed = replay({ rules, first }, moves);
          expect(replayed.ok && replayed.positions.at(-1)).toEqual(state.position);
          const [s0, s1] = state.position.result!.score;
          // The team score is the side's score (R10.1), so R5.3 decides between teams.
          expect(state.position.result!.winner).toBe(s0 > s1 ? 0 : s1 > s0 ? 1 : null);
        },
      ),
      { numRuns: 100 },
    );
  });
});
