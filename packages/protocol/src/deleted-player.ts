/**
 * The name a closed account's player row takes: every record that shows a
 * name (match history, replays, arenas, data exports) shows this one in
 * its place, and the web shows it in the reader's language.
 */
export const DELETED_PLAYER_NAME = 'deleted player';
