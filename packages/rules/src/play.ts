// R3, R4: one ply. The mover's turn (R3), then in this order: the ply count
// and the mover change (R4.1), the end check (R4.2), the refill (R4.3), the
// move limit (R4.4) and repetition (R4.5); an ended game is scored (R5).

import { RING_12, type Direction, type Player } from './board.js';
import type { PlyEvent } from './events.js';
import { PLAY_ERROR_CODES, checkMove, legalMovesOf, type Move, type PlayErrorCode } from './moves.js';
import type { CapturedStock, EndReason, GameResult, Position } from './position.js';
import { RepetitionHistory } from './repetition.js';
import { resultOf } from './scoring.js';
import type { State } from './state.js';
import { capturedDan, capturedQuan, playTurn } from './turn.js';

export type PlayResult =
  | { readonly ok: true; readonly state: State; readonly events: readonly PlyEvent[] }
  | { readonly ok: false; readonly code: PlayErrorCode };

/** Refusals carry nothing but their code, so one frozen result per code serves every call. */
const FAILURES = new Map<PlayErrorCode, PlayResult>(
  PLAY_ERROR_CODES.map((code) => [code, Object.freeze({ ok: false, code })]),
);

/**
 * Plays a move, never throwing on a bad one: an illegal move gives its code
 * and changes nothing. The events tell the ply stone by stone.
 */
export function play(state: State, move: Move): PlayResult {
  const code = checkMove(state.position, move);
  if (code !== null) return failure(code);
  const events: PlyEvent[] = [];
  return { ok: true, state: nextState(state, move.square, move.dir, events), events };
}

/** `play` without events or a result object, for search and bulk replays. */
export function playFast(state: State, move: Move): State | PlayErrorCode {
  const code = checkMove(state.position, move);
  if (code !== null) return code;
  return nextState(state, move.square, move.dir, null);
}

/** R3.1: the legal moves of a game or position; none once it has ended. The list is shared and frozen. */
export function legalMoves(game: State | Position): readonly Move[] {
  return legalMovesOf('position' in game ? game.position : game);
}

/** R5: the result of an ended game, or null while it runs. */
export function outcome(game: State | Position): GameResult | null {
  return ('position' in game ? game.position : game).result;
}

function failure(code: PlayErrorCode): PlayResult {
  return FAILURES.get(code)!;
}

function nextState(state: State, origin: number, dir: Direction, events: PlyEvent[] | null): State {
  const { rules, position } = state;
  const mover = position.toMove;
  const squares = copyBoard(position.squares);
  const inPlay = sum(squares) + position.captured[0].dan + position.captured[1].dan;

  let quanBits = (position.quan[0] ? 1 : 0) | (position.quan[1] ? 2 : 0);
  const packed = playTurn(RING_12, squares, quanBits, origin, dir, rules, events);

  // Unchanged parts are shared with the previous position: most plies
  // capture nothing, so most plies allocate only the board and the position.
  let quan = position.quan;
  let captured = position.captured;
  let debt = position.debt;
  if (packed !== 0) {
    const taken = capturedQuan(packed);
    const stock = captured[mover];
    captured = withStock(captured, mover, {
      dan: stock.dan + capturedDan(packed),
      quan: stock.quan + (taken & 1) + (taken >> 1),
    });
    if (taken !== 0) {
      quanBits &= ~taken;
      quan = [(quanBits & 1) !== 0, (quanBits & 2) !== 0];
    }
  }

  // R4.1
  const ply = position.ply + 1;
  const toMove: Player = mover === 0 ? 1 : 0;
  let reason: EndReason | null = null;

  // R4.2 comes before the refill: a game that ends here ends even if the
  // next mover's row is empty, and no refill is paid.
  if (
    quanBits === 0 &&
    (rules.endWhen === 'quan-pieces-captured' || (squares[0] === 0 && squares[6] === 0))
  ) {
    reason = 'quan-gone';
  } else {
    // R4.3
    const first = 6 * toMove + 1;
    if (
      squares[first] === 0 &&
      squares[first + 1] === 0 &&
      squares[first + 2] === 0 &&
      squares[first + 3] === 0 &&
      squares[first + 4] === 0
    ) {
      const own = Math.min(captured[toMove].dan, 5);
      const borrowed = Math.min(captured[mover].dan, 5 - own);
      const paid = own + borrowed;
      if (paid === 0) {
        reason = 'no-refill';
      } else {
        const filled: number[] = [];
        for (let k = 0; k < paid; k++) {
          squares[first + k] = 1;
          filled.push(first + k);
        }
        const ownStock = captured[toMove];
        const lenderStock = captured[mover];
        captured = withStock(captured, toMove, { dan: ownStock.dan - own, quan: ownStock.quan });
        if (borrowed !== 0) {
          captured = withStock(captured, mover, { dan: lenderStock.dan - borrowed, quan: lenderStock.quan });
          debt = toMove === 0 ? [debt[0] + borrowed, debt[1]] : [debt[0], debt[1] + borrowed];
        }
        if (events !== null) events.push({ type: 'refill', player: toMove, squares: filled, own, borrowed });
      }
    }
    // R4.4 follows the refill, so the ended position shows the refilled row.
    if (reason === null && ply >= rules.plyLimit) reason = 'ply-limit';
  }

  if (sum(squares) + captured[0].dan + captured[1].dan !== inPlay) {
    throw new Error('dân not conserved');
  }

  // R4.5 on the state after the refill.
  let history = state.history;
  if (reason === null) {
    history =
      quan !== position.quan || debt !== position.debt
        ? RepetitionHistory.start(squares, captured[0].dan, captured[1].dan, toMove)
        : history.extend(squares, captured[0].dan, captured[1].dan, toMove);
    if (history.count >= 3) reason = 'repetition';
  }

  let result: GameResult | null = null;
  if (reason !== null) {
    result = resultOf(squares, captured, debt, rules.quanValue, reason);
    if (events !== null) events.push({ type: 'end', reason, score: result.score, winner: result.winner });
  }

  const next: Position = {
    squares,
    quan,
    captured,
    debt,
    toMove,
    ply,
    status: result === null ? 'playing' : 'ended',
    result,
  };
  return { rules, position: next, history };
}

function withStock(
  captured: readonly [CapturedStock, CapturedStock],
  player: Player,
  stock: CapturedStock,
): readonly [CapturedStock, CapturedStock] {
  return player === 0 ? [stock, captured[1]] : [captured[0], stock];
}

/** A literal of twelve copies to a fresh packed array faster than `slice` does. */
function copyBoard(s: readonly number[]): number[] {
  return [s[0]!, s[1]!, s[2]!, s[3]!, s[4]!, s[5]!, s[6]!, s[7]!, s[8]!, s[9]!, s[10]!, s[11]!];
}

function sum(squares: readonly number[]): number {
  let total = 0;
  for (let i = 0; i < 12; i++) total += squares[i]!;
  return total;
}
