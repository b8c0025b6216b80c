// A browser runs the engine in a worker whose stack is about 1 MB. The
// exact solver once recursed one ply per ply to the end of the game, and
// under a ply limit of 10,000 (R4.4 allows it) level 8 overflowed such a
// stack with a handful of dân on the board. Here level 8 plays that
// position in a worker thread given a 1 MB stack.

import { Worker } from 'node:worker_threads';
import { legalMoves, stateFromPosition, type Move } from '@oanquan/rules';
import { LONGEST_PLY_LIMIT, SIX_DAN_ENDGAME } from '@oanquan/testkit';
import { describe, expect, it } from 'vitest';


type Outcome = { ok: true; move: Move } | { ok: false; name: string; message: string };

function bestMoveOnSmallStack(plyLimit: number): Promise<Outcome> {
  const worker = new Worker(new URL('./testing/small-stack-worker.mjs', import.meta.url), {
    resourceLimits: { stackSizeMb: 1 },
    workerData: { position: SIX_DAN_ENDGAME, rules: { plyLimit }, options: { level: 8 } },
  });
  return new Promise<Outcome>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  }).finally(() => worker.terminate());
}

describe('the engine on a 1 MB stack', () => {
  it('plays a legal move at level 8 with six dân on the board under a ply limit of 10,000', async () => {
    const state = stateFromPosition(SIX_DAN_ENDGAME, { plyLimit: LONGEST_PLY_LIMIT });
    const outcome = await bestMoveOnSmallStack(LONGEST_PLY_LIMIT);
    expect(outcome).toMatchObject({ ok: true });
    if (outcome.ok) expect(legalMoves(state)).toContainEqual(outcome.move);
  }, 60_000);
});
