/** What the watch page shows: a room, and since when its game has no longer been in play (null while it is). */
export interface TvState {
  code: string | null;
  leftAt: number | null;
}

/**
 * The watch page's next state once the games in play (best first) are read:
 * it stays on its game while that game is played, even if another becomes
 * the best; once it ends, its end stays on screen `lingerMs`, then the page
 * moves on to the best game in play then.
 */
export function followTop(state: TvState, games: readonly { roomCode: string }[], now: number, lingerMs: number): TvState {
  if (state.code !== null && games.some((game) => game.roomCode === state.code)) return { code: state.code, leftAt: null };
  const leftAt = state.code === null ? null : (state.leftAt ?? now);
  if (state.code === null || (leftAt !== null && now - leftAt >= lingerMs)) return { code: games[0]?.roomCode ?? null, leftAt: null };
  return { code: state.code, leftAt };
}
