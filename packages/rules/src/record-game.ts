// What a game record (record.ts) needs of either game: the Result, Reason
// and Score the rules give when they end it (R5, R10.7), the Result of a
// match ended outside the rules (R5.4), and reading a Result header.

import type { Player } from './board.js';
import type { Seat } from './four-board.js';
import type { Four } from './four-position.js';
import { fourResultText, fourScoreText, parsePlaces, type FourMatchTermination } from './four-record-outcome.js';
import { isFourRules, type GameRules } from './four-rules.js';
import { startGame } from './game-runner.js';
import type { Move, PlayErrorCode } from './moves.js';
import { END_REASONS } from './position.js';
import type { MatchTermination } from './record.js';

export const TERMINATION_REASON = /^[a-z]+(-[a-z]+)*$/;

/** The three headers the rules write for a game they ended. */
export interface RuledOutcome {
  readonly result: string;
  readonly reason: string;
  readonly score: string;
}

/** A Result header read: `*`, a winner (of two players or two teams), or four players' places. */
export type StatedResult = '*' | { readonly winner: Player | null } | { readonly ranking: Four<number> };

export function isTerminationReason(reason: string): boolean {
  return TERMINATION_REASON.test(reason) && !(END_REASONS as readonly string[]).includes(reason);
}

function resultText(winner: Player | null): string {
  return winner === 0 ? '1-0' : winner === 1 ? '0-1' : '1/2-1/2';
}

/** The Result header of either game, or undefined if it cannot be one. */
export function statedResult(text: string, rules: GameRules): StatedResult | undefined {
  if (isFourRules(rules) && rules.teams !== 2) {
    if (text === '*') return '*';
    const ranking = parsePlaces(text);
    return ranking === null ? undefined : { ranking };
  }
  const winner = resultWinner(text);
  return winner === undefined || winner === '*' ? winner : { winner };
}

function resultWinner(text: string): Player | null | '*' | undefined {
  switch (text) {
    case '1-0':
      return 0;
    case '0-1':
      return 1;
    case '1/2-1/2':
      return null;
    case '*':
      return '*';
    default:
      return undefined;
  }
}

/** What writing and reading a record need of either game. */
interface RecordGame {
  /** Plays a move on; the code of its refusal, or null. */
  play(move: Move): PlayErrorCode | null;
  /** The Result, Reason and Score the rules give once they have ended the game, else null. */
  outcome(): RuledOutcome | null;
}

export function recordGame(rules: GameRules, first: Seat): RecordGame {
  if (isFourRules(rules)) {
    const game = startGame({ rules, first });
    return {
      play: (move) => game.play(move),
      outcome() {
        const ended = game.position.result;
        if (ended === null) return null;
        return { result: fourResultText(ended, rules.teams === 2, resultText), reason: ended.reason, score: fourScoreText(ended) };
      },
    };
  }
  if (first !== 0 && first !== 1) throw new RangeError('first must be 0 or 1');
  const game = startGame({ rules, first });
  return {
    play: (move) => game.play(move),
    outcome() {
      const ended = game.position.result;
      if (ended === null) return null;
      return { result: resultText(ended.winner), reason: ended.reason, score: `${ended.score[0]}-${ended.score[1]}` };
    },
  };
}

/** R5.4: the Result of a match outcome decided outside the rules. */
export function terminationResult(termination: MatchTermination | FourMatchTermination, rules: GameRules): string {
  const placed = isFourRules(rules) && rules.teams !== 2;
  if ('ranking' in termination) {
    const text = termination.ranking.join('-');
    if (!placed || parsePlaces(text) === null) throw new RangeError(`places ${text} cannot end this game`);
    return text;
  }
  if (placed) throw new RangeError('a free-for-all game ends with places, not a winner');
  return resultText(termination.winner);
}
