// @oanquan/rules: the rules of Ô ăn quan (R1–R8 and R10 of rules.md) as pure
// functions over plain readonly data.

export {
  MANDARIN_SQUARES,
  SQUARE_COUNT,
  citizenSquares,
  isMandarin,
  mandarinIndex,
  ownerOf,
  squareOf,
  step,
  type Direction,
  type Player,
} from './board.js';
export { FOUR_SQUARE_COUNT, FOUR_TOTAL_DAN, SEATS, fourOwnerOf, nextSeat, type Seat } from './four-board.js';
export type { FourEndEvent, FourPlyEvent, FourRefillEvent, Loan } from './four-events.js';
export { fourLegalMoves, fourPlay, fourPlayFast, type FourPlayResult } from './four-play.js';
export {
  fourDanInPlay,
  fourStartPosition,
  validateFourPosition,
  type Four,
  type FourPosition,
  type FourPositionValidation,
  type FourResult,
} from './four-position.js';
export { handsShown, type Shape } from './four-opener.js';
export type { FourMatchTermination } from './four-record-outcome.js';
export { lendersOf } from './four-refill.js';
export type { FourHistory } from './four-repetition.js';
export {
  FOUR_PLY_LIMIT,
  isFourRules,
  resolveFourRules,
  validateFourRules,
  validateGameRules,
  type FourRuleOptions,
  type FourRulesInput,
  type FourRulesValidation,
  type GameRules,
  type GameRulesValidation,
} from './four-rules.js';
export { fourScoreOf, rankingOf } from './four-scoring.js';
export { fourStateFromPosition, newFourGame, type FourGameSetup, type FourState } from './four-state.js';
export type {
  CaptureEvent,
  DropEvent,
  EndEvent,
  PickupEvent,
  PlyEvent,
  PlyEventType,
  RefillEvent,
  RelayEvent,
  TurnEvent,
} from './events.js';
export {
  ERR_BAD_MOVE,
  ERR_EMPTY_SQUARE,
  ERR_GAME_OVER,
  ERR_NOT_YOUR_SQUARE,
  PLAY_ERROR_CODES,
  checkMove,
  moveOf,
  type Move,
  type PlayErrorCode,
} from './moves.js';
export { formatMove, parseMove, type MoveSpelling } from './notation.js';
export { legalMoves, outcome, play, playFast, type PlayResult } from './play.js';
export {
  END_REASONS,
  TOTAL_DAN,
  danInPlay,
  startPosition,
  validatePosition,
  winnerOf,
  type CapturedStock,
  type EndReason,
  type GameResult,
  type GameStatus,
  type Position,
  type PositionValidation,
} from './position.js';
export { decodePosition, encodePosition } from './position-codec.js';
export {
  formatRecord,
  parseRecord,
  type FourGameRecord,
  type GameRecord,
  type MatchTermination,
  type RecordError,
  type RecordParse,
  type RecordStyle,
  type RecordTag,
} from './record.js';
export type { RecordedState, RepetitionHistory } from './repetition.js';
export { replay, type ReplayResult } from './replay.js';
export { teamSeatAt, type Member, type TeamSeat } from './two-teams.js';
export {
  DEFAULT_RULES,
  END_WHEN_VALUES,
  PRESETS,
  QUAN_VALUES,
  RULE_LIMITS,
  resolveRules,
  sameRules,
  validateRules,
  type EndWhen,
  type PresetName,
  type QuanValue,
  type RuleOptions,
  type RulesValidation,
} from './rule-options.js';
export { decodeRules, encodeRules } from './rules-codec.js';
export { scoreBreakdown, scoreOf, scorePosition, type ScoreBreakdown } from './scoring.js';
export { newGame, stateFromPosition, type GameSetup, type State } from './state.js';
export { ALLOWANCE_BASE_MS, EVENT_MS, MAX_ALLOWANCE_MS, sowingAllowanceMs, sowingMs } from './sowing-time.js';
