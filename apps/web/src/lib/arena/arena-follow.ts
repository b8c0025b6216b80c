/**
 * The arena this tab plays in, kept for the tab's life: while set, every
 * page follows its pairings to the next game (see ArenaFollow.svelte).
 */
const KEY = 'oanquan.arena';

export function followArena(code: string | null): void {
  try {
    if (code === null) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, code);
  } catch {
    // Storage refused (private mode): the arena page still follows its own pairings.
  }
}

export function followedArena(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}
