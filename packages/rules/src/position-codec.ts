// R8 A position as a short stable string, for storage and the wire. Fields
// are separated by `/`, numbers inside a field by `.`:
//
//   squares / quan flags / dân.quan of each stock / debts / mover / ply / result
//   0.5.5.5.5.5.0.5.5.5.5.5/11/0.0.0.0/0.0/0/0/-
//
// The result is `-` while playing, else `reason.score0.score1` (the winner
// follows from the scores, R5.3). Numbers must be written canonically, so
// every position has exactly one encoding.

import { END_REASONS, validatePosition, type EndReason, type Position, type PositionValidation } from './position.js';

export function encodePosition(position: Position): string {
  const { squares, quan, captured, debt, toMove, ply, result } = position;
  return [
    squares.join('.'),
    `${quan[0] ? 1 : 0}${quan[1] ? 1 : 0}`,
    `${captured[0].dan}.${captured[0].quan}.${captured[1].dan}.${captured[1].quan}`,
    `${debt[0]}.${debt[1]}`,
    String(toMove),
    String(ply),
    result === null ? '-' : `${result.reason}.${result.score[0]}.${result.score[1]}`,
  ].join('/');
}

const NATURAL = /^(0|[1-9][0-9]{0,14})$/;
const INTEGER = /^(0|-?[1-9][0-9]{0,14})$/;

/** Decodes and validates (see `validatePosition`); never throws. */
export function decodePosition(text: string): PositionValidation {
  const fail = (message: string): PositionValidation => ({ ok: false, message });
  const fields = text.split('/');
  if (fields.length !== 7) return fail('a position has 7 fields separated by "/"');
  const [board, flags, stocks, debts, mover, ply, outcome] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];

  const squares = naturals(board, 12);
  if (squares === null) return fail('squares must be 12 numbers');
  if (!/^[01]{2}$/.test(flags)) return fail('quan flags must be two of 0 and 1');
  const stock = naturals(stocks, 4);
  if (stock === null) return fail('captured stocks must be 4 numbers');
  const debt = naturals(debts, 2);
  if (debt === null) return fail('debts must be 2 numbers');
  if (mover !== '0' && mover !== '1') return fail('the mover must be 0 or 1');
  if (!NATURAL.test(ply)) return fail('ply must be a number');

  let result: { reason: EndReason; score: [number, number]; winner: 0 | 1 | null } | null = null;
  if (outcome !== '-') {
    const parts = outcome.split('.');
    const [reason = '', s0 = '', s1 = ''] = parts;
    const known = (END_REASONS as readonly string[]).includes(reason);
    if (parts.length !== 3 || !known || !INTEGER.test(s0) || !INTEGER.test(s1)) {
      return fail('the result must be - or reason.score0.score1');
    }
    const score: [number, number] = [Number(s0), Number(s1)];
    result = { reason: reason as EndReason, score, winner: score[0] > score[1] ? 0 : score[1] > score[0] ? 1 : null };
  }

  return validatePosition({
    squares,
    quan: [flags[0] === '1', flags[1] === '1'],
    captured: [
      { dan: stock[0], quan: stock[1] },
      { dan: stock[2], quan: stock[3] },
    ],
    debt,
    toMove: Number(mover),
    ply: Number(ply),
    status: result === null ? 'playing' : 'ended',
    result,
  });
}

function naturals(field: string, count: number): number[] | null {
  const parts = field.split('.');
  if (parts.length !== count || !parts.every((part) => NATURAL.test(part))) return null;
  return parts.map(Number);
}
