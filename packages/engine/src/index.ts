// @oanquan/engine: search for Ô ăn quan on top of @oanquan/rules, for bot
// levels and post-game analysis. Searches are synchronous and CPU-bound: run
// them through `EnginePool`, never on a server's event loop.

export { accuracyOf, analyse, type AnalysisOptions, type AnalysisResult, type GameAnalysis, type GameMoves, type PlyAnalysis } from './analysis.js';
export {
  LABEL_THRESHOLDS,
  POINT_THRESHOLDS,
  chanceLost,
  judgeMove,
  labelOf,
  moveAccuracy,
  pointsWeight,
  type Judgement,
  type MoveLabel,
} from './move-judgement.js';
export {
  ENDGAME_LIMIT,
  ENDGAME_NODES,
  endgameVerdict,
  solveEndgame,
  withinEndgameLimit,
  type EndgameBudget,
  type ExactEndgame,
  type ProvedValue,
} from './endgame.js';
export { bestMove, type BestMove, type SearchOptions } from './best-move.js';
export { EngineError, EnginePool, ERR_ENGINE_TIMEOUT, type CallLimit, type EnginePoolOptions } from './engine-pool.js';
export { ENGINE_WEIGHTS, SCORE_ONLY, type EvaluationWeights } from './evaluation.js';
export { LEVELS, LEVEL_SETTINGS, isLevel, type Level, type LevelSettings } from './levels.js';
export * from './puzzles/index.js';
export { scoreInterval } from './score-interval.js';
export { WIN_CHANCE_SCALE, winChance } from './win-chance.js';
export { ERR_BAD_POSITION, type GameInput } from './worker.js';
