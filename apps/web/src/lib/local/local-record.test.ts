import { legalMoves, sowingAllowanceMs } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { chooseHand, flagFall, gameOf, newRecord, parseRecord, playMove, resultOf, roundWinner, type LocalRecord } from './local-record.js';

const setup = { names: ['Lan', ''] as const, turnBoard: true, clockMinutes: null };

/** The opener played to its end: seat 0 shows `a`, the phone is handed over, seat 1 shows `b`. */
const opener = (record: LocalRecord, a: 'rock' | 'paper' | 'scissors', b: 'rock' | 'paper' | 'scissors') =>
  chooseHand({ ...chooseHand(record, a), handed: true }, b);

describe('two on one phone: the record', () => {
  it('decides rock–paper–scissors as R2.4 does', () => {
    expect(roundWinner('rock', 'scissors')).toBe(0);
    expect(roundWinner('rock', 'paper')).toBe(1);
    expect(roundWinner('paper', 'rock')).toBe(0);
    expect(roundWinner('scissors', 'paper')).toBe(0);
    expect(roundWinner('scissors', 'scissors')).toBeNull();
  });

  it('keeps the first hand until the phone is handed over; a tie replays; the winner moves first', () => {
    const first = chooseHand(newRecord(setup), 'rock');
    expect(first).toMatchObject({ hidden: 'rock', handed: false, rounds: [] });
    // Before the hand-over no second hand is taken.
    expect(chooseHand(first, 'paper')).toBe(first);
    const tie = opener(newRecord(setup), 'rock', 'rock');
    expect(tie).toMatchObject({ hidden: null, handed: false, first: null, rounds: [{ round: 1, choices: ['rock', 'rock'], winner: null }] });
    const decided = opener(tie, 'scissors', 'rock');
    expect(decided.first).toBe(1);
    expect(decided.rounds.map((r) => r.winner)).toEqual([null, 1]);
    expect(gameOf(decided)!.state.position.toMove).toBe(1);
    // Once decided, a hand changes nothing.
    expect(chooseHand(decided, 'rock')).toBe(decided);
  });

  it('charges the mover up to the move and starts the other clock after the sowing allowance', () => {
    const record = opener(newRecord({ ...setup, clockMinutes: 3 }), 'paper', 'rock');
    expect(record.clocks).toMatchObject({ remainingMs: [180_000, 180_000], running: null });
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const move = legalMoves(gameOf(record)!.state.position)[0]!;
    // No clock runs before the first move: its thinking time is free.
    const one = playMove(record, gameOf(record)!, move, t0)!;
    expect(one.record.clocks).toEqual({
      remainingMs: [180_000, 180_000],
      running: 1,
      asOf: new Date(t0).toISOString(),
      startsAt: new Date(t0 + sowingAllowanceMs(one.events)).toISOString(),
    });
    const start1 = Date.parse(one.record.clocks!.startsAt!);
    const reply = legalMoves(one.after.position)[0]!;
    const two = playMove(one.record, gameOf(one.record)!, reply, start1 + 4_000)!;
    expect(two.record.clocks!.remainingMs).toEqual([180_000, 176_000]);
    expect(two.record.moves.at(-1)!.remainingMs).toBe(176_000);
    // Seat 0's clock runs out 180 s after the allowance of seat 1's move.
    const start0 = Date.parse(two.record.clocks!.startsAt!);
    expect(flagFall(two.record, start0 + 179_999)).toBeNull();
    const flagged = flagFall(two.record, start0 + 180_000)!;
    expect(flagged.flagged).toBe(0);
    expect(resultOf(flagged, gameOf(flagged))).toEqual({ winner: 1, reason: 'timeout', score: null });
    expect(playMove(flagged, gameOf(flagged)!, legalMoves(two.after.position)[0]!, start0 + 180_001)).toBeNull();
  });

  it('plays a game to its end by the rules and reads it back from storage', () => {
    let record = opener(newRecord(setup), 'paper', 'rock');
    for (let i = 0; i < 500 && !resultOf(record, gameOf(record)); i++) {
      const game = gameOf(record)!;
      record = playMove(record, game, legalMoves(game.state.position)[0]!, 0)!.record;
    }
    const result = resultOf(record, gameOf(record))!;
    expect(result.score).not.toBeNull();
    const back = parseRecord(JSON.stringify(record))!;
    expect(back).toEqual(record);
    expect(gameOf(back)!.state.position).toEqual(gameOf(record)!.state.position);
  });

  it('refuses what it did not write: bad JSON, wrong fields, moves the rules refuse, a first mover the rounds do not give', () => {
    const record = opener(newRecord(setup), 'paper', 'rock');
    const game = gameOf(record)!;
    const played = playMove(record, game, legalMoves(game.state.position)[0]!, 0)!.record;
    expect(parseRecord(null)).toBeNull();
    expect(parseRecord('{')).toBeNull();
    expect(parseRecord('[]')).toBeNull();
    expect(parseRecord(JSON.stringify({ ...played, setup: { ...setup, clockMinutes: 7 } }))).toBeNull();
    expect(parseRecord(JSON.stringify({ ...played, moves: [...played.moves, { square: 0, dir: 1, remainingMs: null }] }))).toBeNull();
    expect(parseRecord(JSON.stringify({ ...played, first: 1 }))).toBeNull();
    expect(parseRecord(JSON.stringify({ ...played, rounds: [{ choices: ['rock', 'lizard'] }] }))).toBeNull();
    expect(parseRecord(JSON.stringify(played))).toEqual(played);
  });
});
