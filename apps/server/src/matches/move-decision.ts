import { play, sowingAllowanceMs, type State } from '@oanquan/rules';
import { ErrorCode, type ClientPayload, type MatchEvent, type PublicPlayer } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import { afterMove, clocksOnWire, remainingAt } from '../match-records/clock.js';
import type { MatchRow } from '../match-records/match-store.js';
import { asJson } from '../rooms/room-service.js';
import { requireSeat, type MatchUpdate } from './decision.js';
import { firstMoveLapsed } from './end-decisions.js';
import { ending } from './match-end.js';
import type { MoveRecord } from './move-commit.js';

/** A move checked and worked out, not yet committed: `next` is the row after it, at its new version. */
export interface DecidedMove {
  events: MatchEvent[];
  update: MatchUpdate;
  next: MatchRow;
  after: State;
  record: MoveRecord;
  now: Date;
  /** It ends a rated match, whose ratings the transaction updates. */
  rated: boolean;
}

/**
 * design.md "One move, end to end", step 4: checks a move in the fixed order
 * (seat, phase, turn, version, clock, rules) against a match row and the
 * rules state of its version, and works out what it changes. `receivedAt` is
 * when the socket edge got the move: the mover is charged up to then and the
 * time-out judged then; `now` is when it is decided. Touches nothing; throws
 * the refusal.
 */
export function decideMove(match: MatchRow, before: State, player: PublicPlayer, payload: ClientPayload<'move'>, receivedAt: Date, now: Date): DecidedMove {
  const { moveId, version, square, dir } = payload;
  const seat = requireSeat(match, player.id);
  if (match.status !== 'playing') throw new ServiceError(ErrorCode.NotInPlay, 'The match is not in play');
  if (before.position.toMove !== seat) throw new ServiceError(ErrorCode.NotYourTurn, 'It is not your turn');
  if (version !== match.version) {
    throw new ServiceError(ErrorCode.StaleVersion, `You saw version ${version}; the match is at ${match.version}`, 409);
  }
  // Never before the turn began (another process's clock may run a little behind).
  const movedAt = match.turnStartedAt && receivedAt < match.turnStartedAt ? match.turnStartedAt : receivedAt;
  if (match.clock0Ms !== null && remainingAt(match, seat, seat, movedAt) <= 0) {
    throw new ServiceError(ErrorCode.TimeOut, 'Your time has run out', 409);
  }
  if (firstMoveLapsed(match, movedAt)) throw new ServiceError(ErrorCode.TimeOut, 'The first move was due earlier; the match is aborted', 409);
  const played = play(before, { square, dir });
  if (!played.ok) throw new ServiceError(played.code, illegalMoveMessage(played.code));

  const after = played.state;
  const ply = after.position.ply;
  // The next mover's clock stands while the stones move (see sowing-time.ts in the rules); the commit may move it later still.
  const startsAt = new Date(now.getTime() + sowingAllowanceMs(played.events));
  const clock = match.clock0Ms === null ? null : afterMove(match, match.room, seat, movedAt, startsAt);
  const remainingMs = clock?.moverRemainingMs ?? null;
  const result = after.position.result;
  const running = result ? null : after.position.toMove;
  // The sowing and the position follow from the move: every client plays it with the rules.
  const events: MatchEvent[] = [{ type: 'moved', square, dir, clocks: clock && clocksOnWire(clock.update, match.room, running, now) }];
  let update: MatchUpdate = { position: asJson(after.position), ...clock?.update };
  if (result) {
    const end = ending({ ...match, ...clock?.update, position: asJson(after.position) as MatchRow['position'] }, { winner: result.winner, reason: result.reason, score: result.score }, now);
    events.push(end.event);
    update = { ...update, ...end.update };
  }
  return {
    events,
    update,
    after,
    now,
    rated: result !== null && match.rated,
    next: { ...match, ...update, version: match.version + events.length } as MatchRow,
    record: { ply, moveId, playerId: player.id, square, dir, remainingMs, movedAt },
  };
}

function illegalMoveMessage(code: string): string {
  switch (code) {
    case 'ERR_EMPTY_SQUARE':
      return 'That square is empty';
    case 'ERR_NOT_YOUR_SQUARE':
      return 'You can only sow from your own citizen squares';
    case 'ERR_GAME_OVER':
      return 'The game is over';
    default:
      return 'That is not a move';
  }
}
