import type { GameRecord, Player, RecordTag } from '@oanquan/rules';
import type { MatchRecord } from './history.js';

/** Results the rules decide (R4/R5): the moves alone say them, so the record states no termination. */
const BY_THE_RULES: readonly string[] = ['quan-gone', 'no-refill', 'ply-limit', 'repetition'];

/**
 * A match as a game record (R7.2), its players named as the reader knows
 * them (the computer in the reader's language on a page, for instance), and
 * `extra` headers after the usual ones.
 */
export function gameRecordOf(match: MatchRecord, names: readonly [string, string], site: string, extra: readonly RecordTag[] = []): GameRecord {
  const ruled = match.result !== null && BY_THE_RULES.includes(match.result.reason);
  return {
    rules: match.rules,
    first: (match.first ?? 0) as Player,
    moves: match.moves.map(({ square, dir }) => ({ square, dir })),
    termination: match.result && !ruled ? { reason: match.result.reason, winner: match.result.winner } : null,
    tags: [
      { key: 'Site', value: site },
      { key: 'Date', value: (match.startedAt ?? match.createdAt).slice(0, 10) },
      { key: 'Player0', value: names[0] },
      { key: 'Player1', value: names[1] },
      ...(match.timeControl ? [{ key: 'TimeControl', value: `${match.timeControl.initialSeconds}+${match.timeControl.incrementSeconds}` }] : []),
      ...extra,
    ],
  };
}
