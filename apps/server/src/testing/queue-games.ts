import { newGame, play, PRESETS, type Player } from '@oanquan/rules';
import type { MatchSnapshot, QueueMatched, Seat } from '@oanquan/protocol';
import { scriptedGame, type TestClient } from './live.js';

type Joined = { ok: true; seat: Seat | null; snapshot: MatchSnapshot };

/** Two players paired by the queue and seated; `tossWinner` wins the opener, so it moves first. Answers the match and the winner's seat. */
export async function queuedGame(tossWinner: TestClient, tossLoser: TestClient, pool = '3+2'): Promise<{ matchId: string; roomCode: string; winnerSeat: Seat; version: number }> {
  const matchedCount = (c: TestClient) => c.queue.filter((q) => q.matched).length;
  const seen = matchedCount(tossWinner);
  await tossWinner.request('queue:join', { pool });
  await tossLoser.request('queue:join', { pool });
  await tossWinner.until(() => matchedCount(tossWinner) > seen, 'the pairing');
  const { roomCode, matchId } = tossWinner.queue.filter((q) => q.matched).at(-1)!.matched as QueueMatched;
  const joined = (await tossWinner.request('room:join', { code: roomCode })) as Joined;
  await tossLoser.request('room:join', { code: roomCode });
  await tossWinner.request('opener:choose', { matchId, choice: 'rock' });
  const ack = await tossLoser.request('opener:choose', { matchId, choice: 'scissors' });
  if (!ack.ok) throw new Error(ack.code);
  return { matchId, roomCode, winnerSeat: joined.seat!, version: ack.version };
}

/**
 * Plays the first `plies` moves of the scripted classic game of a match whose
 * `first` seat moves first (all of it when `plies` is undefined), each by the
 * client holding the seat to move. Answers the version after the last move.
 */
export async function playPlies(matchId: string, first: Seat, bySeat: readonly [TestClient, TestClient], version: number, plies?: number): Promise<number> {
  let state = newGame({ rules: PRESETS.classic, first: first as Player });
  for (const [i, move] of scriptedGame(PRESETS.classic, first as Player).slice(0, plies).entries()) {
    const ack = await bySeat[state.position.toMove]!.request('move', { matchId, moveId: `m${i}`, version, ...move });
    if (!ack.ok) throw new Error(`${ack.code} at ply ${i + 1}`);
    version = ack.version;
    const next = play(state, move);
    if (!next.ok) throw new Error(next.code);
    state = next.state;
  }
  return version;
}
