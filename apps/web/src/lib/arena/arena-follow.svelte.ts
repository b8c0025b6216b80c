/**
 * The arena this tab plays in, kept for the tab's life: while set, every
 * page follows its pairings to the next game (see ArenaFollow.svelte).
 */
const KEY = 'oanquan.arena';

class Followed {
  code = $state<string | null>(read());
}

function read(): string | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

let followed: Followed | undefined;

export function followedArena(): Followed {
  followed ??= new Followed();
  return followed;
}

export function followArena(code: string | null): void {
  followedArena().code = code;
  try {
    if (code === null) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, code);
  } catch {
    // Storage refused (private mode): this page still follows, a reload forgets.
  }
}
