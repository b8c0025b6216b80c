import { play, stateFromPosition, type Move, type PlyEvent, type Position, type RuleOptions } from '@oanquan/rules';

/** What a move would do, before it is played: where its last dân falls and what it takes. */
export interface Foresight {
  /** The square the last dân is dropped on. */
  readonly end: number;
  /** Every square it captures, in order. */
  readonly captures: readonly number[];
  readonly events: readonly PlyEvent[];
  /** Points taken: dân plus quan at their value. */
  readonly points: number;
}

/** The rules play the move on a copy of the position; nothing here knows the rules itself. */
export function foresee(position: Position, rules: RuleOptions, move: Move): Foresight | null {
  const result = play(stateFromPosition(position, rules), move);
  if (!result.ok) return null;
  let end = move.square;
  const captures: number[] = [];
  let points = 0;
  for (const event of result.events) {
    if (event.type === 'drop') end = event.square;
    if (event.type === 'capture') {
      captures.push(event.square);
      points += event.dan + (event.quan ? rules.quanValue : 0);
    }
  }
  return { end, captures, events: result.events, points };
}
