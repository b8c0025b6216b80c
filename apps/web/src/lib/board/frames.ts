import { EVENT_MS, mandarinIndex, type CapturedStock, type Player, type PlyEvent, type Position } from '@oanquan/rules';

/** What the board shows at one moment: the counts, the quan pieces, both captured stocks, the stones in hand. */
export interface BoardFrame {
  readonly squares: readonly number[];
  readonly quan: readonly [boolean, boolean];
  readonly captured: readonly [CapturedStock, CapturedStock];
  /** Dân in the mover's hand. */
  readonly hand: number;
  /** The square this frame's event happened on, if one. */
  readonly focus: number | null;
  /** Which rule event made this frame; null for a resting position. */
  readonly kind: PlyEvent['type'] | null;
  /** Every square a refill put a dân on. */
  readonly refilled: readonly number[];
}

export function restingFrame(position: Position): BoardFrame {
  return {
    squares: position.squares,
    quan: position.quan,
    captured: position.captured,
    hand: 0,
    focus: null,
    kind: null,
    refilled: [],
  };
}

/**
 * One frame per rule event of a ply (each dân dropped is its own frame),
 * built from the position before and the events alone, so the board can
 * show a move stone by stone without knowing the rules.
 */
export function eventFrames(before: Position, events: readonly PlyEvent[]): BoardFrame[] {
  const mover: Player = before.toMove;
  const squares = [...before.squares];
  const quan: [boolean, boolean] = [before.quan[0], before.quan[1]];
  const captured: [CapturedStock, CapturedStock] = [{ ...before.captured[0] }, { ...before.captured[1] }];
  let hand = 0;
  const frames: BoardFrame[] = [];
  const snap = (kind: PlyEvent['type'], focus: number | null, refilled: readonly number[] = []) =>
    frames.push({
      squares: [...squares],
      quan: [quan[0], quan[1]],
      captured: [{ ...captured[0] }, { ...captured[1] }],
      hand,
      focus,
      kind,
      refilled,
    });

  for (const event of events) {
    switch (event.type) {
      case 'pickup':
      case 'relay':
        squares[event.square] = 0;
        hand = event.count;
        snap(event.type, event.square);
        break;
      case 'drop':
        squares[event.square] = (squares[event.square] ?? 0) + 1;
        hand = Math.max(0, hand - 1);
        snap('drop', event.square);
        break;
      case 'capture': {
        squares[event.square] = 0;
        const stock = captured[mover];
        captured[mover] = { dan: stock.dan + event.dan, quan: stock.quan + (event.quan ? 1 : 0) };
        const index = mandarinIndex(event.square);
        if (event.quan && index !== null) quan[index] = false;
        snap('capture', event.square);
        break;
      }
      case 'refill': {
        for (const square of event.squares) squares[square] = 1;
        const lender: Player = event.player === 0 ? 1 : 0;
        captured[event.player] = { ...captured[event.player], dan: captured[event.player].dan - event.own };
        captured[lender] = { ...captured[lender], dan: captured[lender].dan - event.borrowed };
        snap('refill', null, event.squares);
        break;
      }
      case 'end':
        break;
    }
  }
  return frames;
}

/**
 * `eventFrames`, with the last frame showing the position after exactly as
 * the referee sent it: whatever the animation shows on the way, the board
 * comes to rest on the server's position.
 */
export function sowingFrames(before: Position, events: readonly PlyEvent[], after: Position): BoardFrame[] {
  const frames = eventFrames(before, events);
  const last = frames.pop();
  frames.push({ ...restingFrame(after), kind: last?.kind ?? null, focus: last?.focus ?? null, refilled: last?.refilled ?? [] });
  return frames;
}

/** Milliseconds each kind of frame stays on screen at normal speed: the pace the server's sowing allowance is counted at. */
export const FRAME_MS: Readonly<Record<PlyEvent['type'], number>> = EVENT_MS;
