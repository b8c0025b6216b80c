// The engine for a browser's worker: the search and the levels' budgets,
// without the pool, whose threads and priorities are Node's. A page runs it
// through apps/web's engine worker, never on its main thread.

export { bestMove, type BestMove, type SearchOptions } from './best-move.js';
export { ERR_BAD_POSITION, stateOfGame, type GameInput, type InputError } from './game-input.js';
export { LEVELS, LEVEL_SETTINGS, isLevel, type Level } from './levels.js';
