// Two on one phone: the whole game lives in the page. R2.4's
// rock–paper–scissors is played in turns on the one screen (the first hand is
// hidden until the second is in; a tie replays; the winner moves first), then
// R3–R5 by the rules package. A record of plain data is all that is kept, in
// this browser's storage, so a reload plays its moves again and goes on.

import { DEFAULT_RULES, formatMove, handsShown, newGame, play, sowingAllowanceMs, type Direction, type Move, type PlyEvent, type Position, type State } from '@oanquan/rules';
import type { Clocks, Hand, MatchResult, OpenerRound, PlayedMove, Seat } from '@oanquan/protocol';
import { remainingMs } from '../match/clock.js';

export const HANDS: readonly Hand[] = ['rock', 'paper', 'scissors'];
export const CLOCK_MINUTES = [3, 5, 10] as const;
export const NAME_MAX = 20;

export interface LocalSetup {
  /** Names typed in; empty for "Player 1" / "Player 2" in the reader's language. */
  readonly names: readonly [string, string];
  /** Turn the board so the mover's row is at the bottom, or keep seat 0's there. */
  readonly turnBoard: boolean;
  /** Minutes on each clock, or null for no clocks. */
  readonly clockMinutes: number | null;
}

export interface LocalMove {
  readonly square: number;
  readonly dir: Direction;
  /** The mover's time left after it, with clocks. */
  readonly remainingMs: number | null;
}

export interface LocalRecord {
  readonly setup: LocalSetup;
  /** The opener's decided rounds. */
  readonly rounds: readonly OpenerRound[];
  /** Seat 0's hand in the open round, kept from seat 1 until they have chosen theirs. */
  readonly hidden: Hand | null;
  /** Whether the phone has been handed to seat 1 for their hand. */
  readonly handed: boolean;
  readonly first: Seat | null;
  readonly moves: readonly LocalMove[];
  readonly clocks: Clocks | null;
  /** The seat whose clock ran out, which ends the game. */
  readonly flagged: Seat | null;
}

export function newRecord(setup: LocalSetup): LocalRecord {
  return { setup, rounds: [], hidden: null, handed: false, first: null, moves: [], clocks: null, flagged: null };
}

/** R2.4 for two: the seat whose hand wins, or null for a tie. */
export function roundWinner(hand0: Hand, hand1: Hand): Seat | null {
  const stay = handsShown([
    { seat: 0, hand: hand0 },
    { seat: 1, hand: hand1 },
  ]);
  return stay.length === 1 ? (stay[0] as Seat) : null;
}

/** A hand chosen by the seat whose turn it is in the opener; the record unchanged when it is no one's. */
export function chooseHand(record: LocalRecord, hand: Hand): LocalRecord {
  if (record.first !== null) return record;
  if (record.hidden === null) return { ...record, hidden: hand, handed: false };
  if (!record.handed) return record;
  const choices = [record.hidden, hand] as const;
  const winner = roundWinner(choices[0], choices[1]);
  const rounds = [...record.rounds, { round: record.rounds.length + 1, choices, winner }];
  const clocks: Clocks | null =
    winner !== null && record.setup.clockMinutes !== null
      ? { remainingMs: [record.setup.clockMinutes * 60_000, record.setup.clockMinutes * 60_000], running: null, asOf: new Date().toISOString() }
      : null;
  return { ...record, rounds, hidden: null, handed: false, first: winner, clocks };
}

export interface LocalGame {
  readonly state: State;
  /** positions[i]: after i moves, for looking back. */
  readonly positions: readonly Position[];
  readonly moves: readonly PlayedMove[];
  readonly events: readonly (readonly PlyEvent[])[];
}

/** The record's moves played again by the rules (R4.5's repetitions need the whole line); null before the opener is decided or for a record the rules refuse. */
export function gameOf(record: LocalRecord): LocalGame | null {
  if (record.first === null) return null;
  let state = newGame({ rules: DEFAULT_RULES, first: record.first });
  const positions: Position[] = [state.position];
  const moves: PlayedMove[] = [];
  const events: PlyEvent[][] = [];
  for (const move of record.moves) {
    const seat = state.position.toMove;
    const result = play(state, { square: move.square, dir: move.dir });
    if (!result.ok) return null;
    state = result.state;
    moves.push({ ply: state.position.ply, seat, square: move.square, dir: move.dir, notation: formatMove(move, seat), remainingMs: move.remainingMs });
    events.push([...result.events]);
    positions.push(state.position);
  }
  return { state, positions, moves, events };
}

/**
 * A move, as the server would take it: the mover is charged up to `now`; the
 * other clock starts only after the ply's sowing allowance (no clock runs
 * before the first move). Null when the rules refuse it.
 */
export function playMove(record: LocalRecord, game: LocalGame, move: Move, now: number): { record: LocalRecord; events: readonly PlyEvent[]; after: State } | null {
  if (record.flagged !== null) return null;
  const seat = game.state.position.toMove;
  const result = play(game.state, move);
  if (!result.ok) return null;
  let clocks = record.clocks;
  if (clocks) {
    const kept = remainingMs(clocks, seat, now, 0);
    const remaining: [number, number] = seat === 0 ? [kept, clocks.remainingMs[1]] : [clocks.remainingMs[0], kept];
    const over = result.state.position.status === 'ended';
    clocks = over
      ? { remainingMs: remaining, running: null, asOf: new Date(now).toISOString() }
      : {
          remainingMs: remaining,
          running: (1 - seat) as Seat,
          asOf: new Date(now).toISOString(),
          startsAt: new Date(now + sowingAllowanceMs(result.events)).toISOString(),
        };
  }
  const played: LocalMove = { square: move.square, dir: move.dir, remainingMs: clocks ? clocks.remainingMs[seat] : null };
  return { record: { ...record, moves: [...record.moves, played], clocks }, events: result.events, after: result.state };
}

/** The record once the running clock has run out at `now`, or null while it has not. */
export function flagFall(record: LocalRecord, now: number): LocalRecord | null {
  const clocks = record.clocks;
  if (!clocks || clocks.running === null || record.flagged !== null) return null;
  const seat = clocks.running;
  if (remainingMs(clocks, seat, now, 0) > 0) return null;
  const remaining: [number, number] = seat === 0 ? [0, clocks.remainingMs[1]] : [clocks.remainingMs[0], 0];
  return { ...record, flagged: seat, clocks: { remainingMs: remaining, running: null, asOf: new Date(now).toISOString() } };
}

/** How the game ended: by the rules (R4) or on time; null while it goes on. */
export function resultOf(record: LocalRecord, game: LocalGame | null): MatchResult | null {
  if (record.flagged !== null) return { winner: (1 - record.flagged) as Seat, reason: 'timeout', score: null };
  const result = game?.state.position.result;
  return result ? { winner: result.winner, reason: result.reason, score: result.score } : null;
}

const isSeat = (value: unknown): value is Seat => value === 0 || value === 1;
const isHand = (value: unknown): value is Hand => HANDS.includes(value as Hand);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function parseSetup(value: unknown): LocalSetup | null {
  if (!isObject(value) || !Array.isArray(value.names) || value.names.length !== 2) return null;
  const [a, b] = value.names as unknown[];
  if (typeof a !== 'string' || typeof b !== 'string' || typeof value.turnBoard !== 'boolean') return null;
  const minutes = value.clockMinutes;
  if (minutes !== null && !CLOCK_MINUTES.includes(minutes as never)) return null;
  return { names: [a.slice(0, NAME_MAX), b.slice(0, NAME_MAX)], turnBoard: value.turnBoard, clockMinutes: minutes as number | null };
}

function parseClocks(value: unknown): Clocks | null | undefined {
  if (value === null) return null;
  if (!isObject(value) || !Array.isArray(value.remainingMs) || value.remainingMs.length !== 2) return undefined;
  if (!value.remainingMs.every((ms) => Number.isFinite(ms)) || !(value.running === null || isSeat(value.running))) return undefined;
  if (typeof value.asOf !== 'string' || Number.isNaN(Date.parse(value.asOf))) return undefined;
  if (value.startsAt !== undefined && (typeof value.startsAt !== 'string' || Number.isNaN(Date.parse(value.startsAt)))) return undefined;
  const clocks: Clocks = { remainingMs: [value.remainingMs[0] as number, value.remainingMs[1] as number], running: value.running, asOf: value.asOf };
  return value.startsAt === undefined ? clocks : { ...clocks, startsAt: value.startsAt as string };
}

/**
 * A record read back from storage, which anything may have written: checked
 * field by field and its moves played again by the rules. Null for anything
 * else, which starts afresh rather than showing a game the rules refuse.
 */
export function parseRecord(text: string | null): LocalRecord | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  const setup = parseSetup(value.setup);
  const clocks = parseClocks(value.clocks);
  if (!setup || clocks === undefined || !Array.isArray(value.rounds) || !Array.isArray(value.moves)) return null;
  const rounds: OpenerRound[] = [];
  for (const round of value.rounds as unknown[]) {
    if (!isObject(round) || !Array.isArray(round.choices) || !isHand(round.choices[0]) || !isHand(round.choices[1])) return null;
    rounds.push({ round: rounds.length + 1, choices: [round.choices[0], round.choices[1]], winner: roundWinner(round.choices[0], round.choices[1]) });
  }
  const decided = rounds.at(-1)?.winner ?? null;
  if (rounds.slice(0, -1).some((round) => round.winner !== null) || value.first !== decided) return null;
  const hidden = value.hidden === null || isHand(value.hidden) ? value.hidden : undefined;
  if (hidden === undefined || typeof value.handed !== 'boolean' || !(value.flagged === null || isSeat(value.flagged))) return null;
  const moves: LocalMove[] = [];
  for (const move of value.moves as unknown[]) {
    if (!isObject(move) || !Number.isInteger(move.square) || (move.dir !== 1 && move.dir !== -1)) return null;
    const remaining = move.remainingMs;
    if (remaining !== null && !Number.isFinite(remaining)) return null;
    moves.push({ square: move.square as number, dir: move.dir, remainingMs: remaining as number | null });
  }
  const record: LocalRecord = { setup, rounds, hidden, handed: value.handed && hidden !== null, first: decided, moves, clocks, flagged: value.flagged };
  if (decided === null ? moves.length > 0 || clocks !== null : !gameOf(record)) return null;
  return record;
}
