// A puzzle's themes, read from the events of its line (rules R3–R4):
//   capture-chain  a solver move captures two squares or more in one chain (R3.4)
//   quan           a solver move captures a quan piece
//   refill         someone has to refill their row during the line (R4.3)
//   endgame        few dân are left on the board, or the line ends the game
//   sweep          a solver move empties the opponent's row: they must refill, or the game ends

import { citizenSquares, play, type Player, type Move, type PlyEvent, type State } from '@oanquan/rules';

export const PUZZLE_THEMES = ['capture-chain', 'quan', 'refill', 'endgame', 'sweep'] as const;
export type PuzzleTheme = (typeof PUZZLE_THEMES)[number];

/** At most this many dân on the board makes an endgame. */
export const ENDGAME_DAN = 15;

export function themesOf(state: State, line: readonly Move[]): PuzzleTheme[] {
  const themes = new Set<PuzzleTheme>();
  const solver = state.position.toMove;
  if (danOnBoard(state) <= ENDGAME_DAN) themes.add('endgame');
  let current = state;
  for (const move of line) {
    const mover = current.position.toMove;
    const next = play(current, move);
    if (!next.ok) throw new RangeError(`illegal line move: ${next.code}`);
    const events: readonly PlyEvent[] = next.events;
    if (mover === solver) {
      const captures = events.filter((event) => event.type === 'capture');
      if (captures.length >= 2) themes.add('capture-chain');
      if (captures.some((event) => event.quan)) themes.add('quan');
      if (rowEmptied(current.position.squares, next.events, mover === 0 ? 1 : 0)) themes.add('sweep');
    }
    if (events.some((event) => event.type === 'refill')) themes.add('refill');
    if (events.some((event) => event.type === 'end')) themes.add('endgame');
    current = next.state;
  }
  return PUZZLE_THEMES.filter((theme) => themes.has(theme));
}

function danOnBoard(state: State): number {
  return state.position.squares.reduce((sum, dan) => sum + dan, 0);
}

/** Whether the opponent's citizen squares were left empty by the move: they refill (R4.3) or the game ends. */
function rowEmptied(before: readonly number[], events: readonly PlyEvent[], opponent: Player): boolean {
  const after = [...before];
  for (const event of events) {
    if (event.type === 'pickup' || event.type === 'relay') after[event.square] = 0;
    else if (event.type === 'drop') after[event.square]! += 1;
    else if (event.type === 'capture') after[event.square] = 0;
  }
  return citizenSquares(opponent).every((square) => after[square] === 0);
}
