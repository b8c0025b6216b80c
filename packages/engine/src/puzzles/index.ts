export {
  POINT_GAP,
  WIN_GAP,
  clearBest,
  findPuzzle,
  initialPuzzleRating,
  playLine,
  puzzleState,
  type Puzzle,
  type PuzzleOptions,
} from './find-puzzle.js';
export { selfPlayPuzzles, type SelfPlayOptions } from './self-play.js';
export { ENDGAME_DAN, PUZZLE_THEMES, themesOf, type PuzzleTheme } from './themes.js';
export { gamePuzzles, pliesWorthALook, type GamePuzzleOptions } from './game-puzzles.js';
