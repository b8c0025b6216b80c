// Games between two players of the engine, from paired openings: the first
// mover's opening move is each of the ten moves in turn (and past the tenth,
// with a reply of the second mover's too, so that deterministic players do not
// repeat games), and each opening is played twice with the seats swapped, so
// neither side profits from a lucky opening or from moving first.

import { legalMoves, newGame, play, type Move, type RuleOptions, type State } from '@oanquan/rules';
import { bestMove, type SearchOptions } from '../src/best-move.js';

export type Player = (state: State, seed: number) => Move;

export function enginePlayer(options: SearchOptions): Player {
  return (state, seed) => bestMove(state, { ...options, seed }).move;
}

export interface GameOutcome {
  /** Player 0's score less player 1's. */
  readonly margin: number;
  readonly plies: number;
  readonly moves: readonly Move[];
}

export function playGame(
  rules: RuleOptions,
  opening: readonly Move[],
  players: readonly [Player, Player],
  seed: number,
  onMove?: (state: State, move: Move, ms: number, seat: 0 | 1) => void,
): GameOutcome {
  let state = newGame({ rules, first: 0 });
  const moves: Move[] = [];
  for (const move of opening) state = advance(state, move, moves);
  while (state.position.status === 'playing') {
    const seat = state.position.toMove;
    const started = performance.now();
    const move = players[seat](state, seed + state.position.ply);
    onMove?.(state, move, performance.now() - started, seat);
    state = advance(state, move, moves);
  }
  const [s0, s1] = state.position.result!.score;
  return { margin: s0 - s1, plies: state.position.ply, moves };
}

function advance(state: State, move: Move, moves: Move[]): State {
  const result = play(state, move);
  if (!result.ok) throw new Error(`illegal move ${JSON.stringify(move)}: ${result.code}`);
  moves.push(move);
  return result.state;
}

/**
 * Opening i: the first mover's legal move i mod 10 from the start; from the
 * eleventh on, followed by the second mover's legal move ⌊i / 10⌋ (modulo
 * its count): a hundred openings before any repeats.
 */
export function opening(index: number, rules?: RuleOptions): Move[] {
  const start = newGame({ rules, first: 0 });
  const first = legalMoves(start)[index % 10]!;
  if (index < 10) return [first];
  const after = play(start, first);
  if (!after.ok || after.state.position.status !== 'playing') return [first];
  const replies = legalMoves(after.state);
  return [first, replies[Math.floor(index / 10) % replies.length]!];
}

export interface MatchScore {
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  /** Points of the first player: a win is 1, a draw ½. */
  readonly score: number;
  /** Mean final margin from the first player's view. */
  readonly meanMargin: number;
  /**
   * Openings where the first player's two games together ended below zero:
   * where it did worse than the second player did from the same seats. Many
   * openings leave one seat lost with best play, so a loss from that seat
   * says little; doing worse than the opponent from the same opening does.
   */
  readonly openingsBehind: number;
  /**
   * Openings whose two games the same seat won: there the seat decided, not
   * the player. Over many such openings no player can score far from 50 %.
   */
  readonly seatDecided: number;
  /** The games the first player lost: opening index, its seat, the final margin from its view. */
  readonly lost: readonly { readonly opening: number; readonly seat: 0 | 1; readonly margin: number }[];
}

/** `pairs` openings (`openings(i)`, by default `opening(i)`), each played with `a` on both seats; scores are a's. */
export function pairedMatch(
  rules: RuleOptions,
  a: Player,
  b: Player,
  pairs: number,
  seed: number,
  onMove?: (state: State, move: Move, ms: number, player: 'a' | 'b') => void,
  openings: (index: number) => readonly Move[] = (index) => opening(index, rules),
): MatchScore {
  let wins = 0;
  let draws = 0;
  let losses = 0;
  let marginSum = 0;
  let openingsBehind = 0;
  let seatDecided = 0;
  const lost: { opening: number; seat: 0 | 1; margin: number }[] = [];
  for (let i = 0; i < pairs; i++) {
    const moves = openings(i);
    const seatMargins: number[] = [];
    for (const aSeat of [0, 1] as const) {
      const players: [Player, Player] = aSeat === 0 ? [a, b] : [b, a];
      const game = playGame(rules, moves, players, seed + 1000 * i + aSeat, (state, move, ms, seat) =>
        onMove?.(state, move, ms, seat === aSeat ? 'a' : 'b'),
      );
      const margin = aSeat === 0 ? game.margin : -game.margin;
      marginSum += margin;
      seatMargins.push(margin);
      if (margin > 0) wins++;
      else if (margin < 0) {
        losses++;
        lost.push({ opening: i, seat: aSeat, margin });
      }
      else draws++;
    }
    const [first, second] = seatMargins as [number, number];
    if (first + second < 0) openingsBehind++;
    if (first * second < 0) seatDecided++;
  }
  const games = 2 * pairs;
  return { games, wins, draws, losses, score: (wins + draws / 2) / games, meanMargin: marginSum / games, openingsBehind, seatDecided, lost };
}
