// R10.4–R10.7: one four-player ply. The mover's turn (R3 on the ring of 24),
// then in R4's order: the ply count and the next player in ring order
// (R10.5), the end check on all four mandarin squares (R10.6), the refill
// with its lenders (R10.6, R10.8), the move limit and repetition; an ended
// game is scored and ranked (R10.7, R10.8).

import type { Direction } from './board.js';
import { RING_24, nextSeat, type Seat } from './four-board.js';
import type { FourPlyEvent } from './four-events.js';
import type { Four, FourPosition, FourResult } from './four-position.js';
import { planRefill } from './four-refill.js';
import { FourHistory } from './four-repetition.js';
import { fourResultOf } from './four-scoring.js';
import type { FourState } from './four-state.js';
import { checkMove, legalMovesOf, type Move, type PlayErrorCode } from './moves.js';
import type { CapturedStock, EndReason } from './position.js';
import { capturedDan, capturedQuan, playTurn } from './turn.js';

export type FourPlayResult =
  | { readonly ok: true; readonly state: FourState; readonly events: readonly FourPlyEvent[] }
  | { readonly ok: false; readonly code: PlayErrorCode };

/** Plays a move, never throwing on a bad one: an illegal move gives its code (R8) and changes nothing. */
export function fourPlay(state: FourState, move: Move): FourPlayResult {
  const code = checkMove(state.position, move);
  if (code !== null) return { ok: false, code };
  const events: FourPlyEvent[] = [];
  return { ok: true, state: nextState(state, move.square, move.dir, events), events };
}

/** `fourPlay` without events or a result object. */
export function fourPlayFast(state: FourState, move: Move): FourState | PlayErrorCode {
  const code = checkMove(state.position, move);
  if (code !== null) return code;
  return nextState(state, move.square, move.dir, null);
}

/** R3.1 on the ring of 24: the legal moves, by ascending square, +1 before −1; none once ended. Shared and frozen. */
export function fourLegalMoves(game: FourState | FourPosition): readonly Move[] {
  return legalMovesOf('position' in game ? game.position : game);
}

function nextState(state: FourState, origin: number, dir: Direction, events: FourPlyEvent[] | null): FourState {
  const { rules, position } = state;
  const mover = position.toMove;
  const squares = position.squares.slice();
  const inPlay = total(squares, position.captured);

  let quanBits = 0;
  for (let i = 0; i < 4; i++) if (position.quan[i]) quanBits |= 1 << i;
  const packed = playTurn(RING_24, squares, quanBits, origin, dir, rules, events);

  let quan = position.quan;
  let captured = position.captured;
  let debt = position.debt;
  if (packed !== 0) {
    const taken = capturedQuan(packed);
    const stock = captured[mover];
    captured = withStock(captured, mover, { dan: stock.dan + capturedDan(packed), quan: stock.quan + bitCount(taken) });
    if (taken !== 0) {
      quanBits &= ~taken;
      quan = [(quanBits & 1) !== 0, (quanBits & 2) !== 0, (quanBits & 4) !== 0, (quanBits & 8) !== 0];
    }
  }

  // R10.5 (R4.1)
  const ply = position.ply + 1;
  const toMove = nextSeat(mover);
  let reason: EndReason | null = null;

  // R10.6: the end check before the refill, as R4.2 comes before R4.3.
  const mandarinsEmpty = squares[0] === 0 && squares[6] === 0 && squares[12] === 0 && squares[18] === 0;
  if (quanBits === 0 && (rules.endWhen === 'quan-pieces-captured' || mandarinsEmpty)) {
    reason = 'quan-gone';
  } else {
    const first = 6 * toMove + 1;
    if (squares[first] === 0 && squares[first + 1] === 0 && squares[first + 2] === 0 && squares[first + 3] === 0 && squares[first + 4] === 0) {
      const refill = planRefill(captured, toMove, rules.teams === 2);
      if (refill.paid === 0) {
        reason = 'no-refill';
      } else {
        const filled: number[] = [];
        for (let k = 0; k < refill.paid; k++) {
          squares[first + k] = 1;
          filled.push(first + k);
        }
        const own = captured[toMove];
        captured = withStock(captured, toMove, { dan: own.dan - refill.own, quan: own.quan });
        if (refill.loans.length > 0) {
          const owes = debt[toMove].slice();
          for (const loan of refill.loans) {
            const lender = captured[loan.from];
            captured = withStock(captured, loan.from, { dan: lender.dan - loan.dan, quan: lender.quan });
            // R10.6: debts are kept gross, one entry per borrower and lender.
            owes[loan.from]! += loan.dan;
          }
          debt = withRow(debt, toMove, owes as unknown as Four<number>);
        }
        if (events !== null) {
          const borrowed = refill.paid - refill.own;
          events.push({ type: 'refill', player: toMove, squares: filled, own: refill.own, borrowed, loans: refill.loans });
        }
      }
    }
    // R4.4 follows the refill, so the ended position shows the refilled row.
    if (reason === null && ply >= rules.plyLimit) reason = 'ply-limit';
  }

  if (total(squares, captured) !== inPlay) throw new Error('dân not conserved');

  // R10.6 (R4.5) on the state after the refill.
  let history = state.history;
  if (reason === null) {
    history =
      quan !== position.quan || debt !== position.debt
        ? FourHistory.start(squares, captured, toMove)
        : history.extend(squares, captured, toMove);
    if (history.count >= 3) reason = 'repetition';
  }

  let result: FourResult | null = null;
  if (reason !== null) {
    result = fourResultOf({ squares, captured, debt }, rules.quanValue, rules.teams === 2, reason);
    if (events !== null) events.push({ type: 'end', result });
  }
  const next: FourPosition = { squares, quan, captured, debt, toMove, ply, status: result === null ? 'playing' : 'ended', result };
  return { rules, position: next, history };
}

function withStock(captured: Four<CapturedStock>, player: Seat, stock: CapturedStock): Four<CapturedStock> {
  const next = captured.slice();
  next[player] = stock;
  return next as unknown as Four<CapturedStock>;
}

function withRow(debt: Four<Four<number>>, player: Seat, row: Four<number>): Four<Four<number>> {
  const next = debt.slice();
  next[player] = row;
  return next as unknown as Four<Four<number>>;
}

function total(squares: readonly number[], captured: Four<CapturedStock>): number {
  let sum = captured[0].dan + captured[1].dan + captured[2].dan + captured[3].dan;
  for (const n of squares) sum += n;
  return sum;
}

function bitCount(bits: number): number {
  return (bits & 1) + ((bits >> 1) & 1) + ((bits >> 2) & 1) + ((bits >> 3) & 1);
}
