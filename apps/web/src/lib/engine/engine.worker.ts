// The engine in a module worker: the page's thread never searches. Each
// request is one search at a bot level, with the same depth and node budgets
// the server's bots use (the engine's level table), and no time limit: the
// node budget bounds it, and the same seed gives the same move anywhere.

import { bestMove, stateOfGame } from '@oanquan/engine/browser';
import { ERR_GAME_OVER, type MoveReply, type MoveRequest } from './engine-messages.js';

const scope = self as unknown as { onmessage: ((event: MessageEvent<MoveRequest>) => void) | null; postMessage(reply: MoveReply): void };

scope.onmessage = ({ data: { id, game, level, seed } }) => {
  scope.postMessage(reply(id, () => {
    const state = stateOfGame(game);
    if ('code' in state) return state;
    if (state.position.status !== 'playing') return { ok: false, code: ERR_GAME_OVER, message: 'the game has ended' };
    return { ok: true, move: bestMove(state, { level, seed }).move };
  }));
};

function reply(id: number, answer: () => Omit<MoveReply, 'id'>): MoveReply {
  try {
    return { id, ...answer() } as MoveReply;
  } catch (error) {
    // A caller's bad level or a defect: the page hears of it rather than waiting forever.
    return { id, ok: false, code: 'ERR_ENGINE', message: error instanceof Error ? error.message : String(error) };
  }
}
