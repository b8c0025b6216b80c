// Post-game analysis: for each ply, the engine's value of the position, the
// mover's win chance, the best move, the points the played move lost, a
// label and an accuracy; and an accuracy per player.
//
// Each move is judged (move-judgement.ts) by the mover's win chance and the
// points it lost against the best move's value, both searched to the same
// depth in one search, so they share a table. A player's accuracy is the
// mean over their moves; a forced move (the only legal one) counts as 100.
// Within the endgame limit (endgame.ts) the solver is tried on the position
// and on the move played. What it proves is given as bounds on the final
// margin with best play (`bestPlay`, equal when exact); the values shown are
// kept within them, and a move from a proved win to a proved draw or loss is
// marked `throwsWin`.

import { newGame, play, type Move, type Player, type PlayErrorCode, type RuleOptions } from '@oanquan/rules';
import { pvMoves } from './best-move.js';
import { ENDGAME_NODES, endgameVerdict, type ProvedValue } from './endgame.js';
import { ENGINE_WEIGHTS } from './evaluation.js';
import { nodeOf, nodeRules } from './game-node.js';
import { fromRulesMove, toRulesMove } from './moves.js';
import { Search, legalOf, type SearchLimits } from './search.js';
import { judgeMove, type MoveLabel } from './move-judgement.js';
import { winChance } from './win-chance.js';

export interface GameMoves {
  readonly rules?: Partial<RuleOptions>;
  readonly first?: Player;
  readonly moves: readonly Move[];
}

export interface AnalysisOptions {
  /** Search depth per ply; 8 unless given. */
  readonly depth?: number;
  /** Node budget per ply, instead of or beside the depth. */
  readonly nodes?: number;
  /**
   * Plies before this index are replayed, not searched: a long game can be
   * analysed in slices (each its own call), so a caller can report progress
   * and other work can run between them. Accuracies are then over the slice
   * only; `accuracyOf` gives them over every slice's plies.
   */
  readonly fromPly?: number;
  /** Node budget of each exact endgame solve (0 turns them off). */
  readonly exactNodes?: number;
}

export interface PlyAnalysis {
  /** Index of the move in the game, from 0. */
  readonly ply: number;
  readonly player: Player;
  readonly move: Move;
  /** The position's value before the move: expected final margin from the mover's view, in points. */
  readonly eval: number;
  /** The mover's chance to win before the move. */
  readonly winChance: number;
  readonly best: Move;
  /** The line the engine expected, from the best move. */
  readonly pv: readonly Move[];
  /** The value of the move played, from the mover's view. */
  readonly playedEval: number;
  readonly pointsLost: number;
  /** The mover's win chance lost by the move played, 0–1. */
  readonly chanceLost: number;
  readonly label: MoveLabel;
  /** 0–100. */
  readonly accuracy: number;
  /** Proved bounds on the final margin with best play before the move (mover's view), equal when exact; null when nothing was proved. */
  readonly bestPlay: ProvedValue | null;
  /** The position was won with best play (exactly) and the move played draws or loses it. */
  readonly throwsWin: boolean;
}

export interface GameAnalysis {
  readonly plies: readonly PlyAnalysis[];
  /** Per player, 0–100; null for a player who made no move. */
  readonly accuracy: readonly [number | null, number | null];
}

export type AnalysisResult =
  | { readonly ok: true; readonly analysis: GameAnalysis }
  | { readonly ok: false; readonly error: { readonly ply: number; readonly code: PlayErrorCode } };

const DEFAULT_DEPTH = 8;

/** Analyses a game from its rules, first mover and moves; an illegal move is reported, not thrown. */
export function analyse(game: GameMoves, options: AnalysisOptions = {}): AnalysisResult {
  let state = newGame({ rules: game.rules ?? {}, first: game.first ?? 0 });
  const rules = nodeRules(state.rules);
  const search = new Search(rules, ENGINE_WEIGHTS);
  const depth = options.depth ?? DEFAULT_DEPTH;
  const limits: SearchLimits = { depth, nodes: options.nodes ?? Infinity, deadline: Infinity, softDeadline: Infinity };
  const fromPly = options.fromPly ?? 0;
  const exactNodes = options.exactNodes ?? ENDGAME_NODES;
  const plies: PlyAnalysis[] = [];

  for (const [ply, move] of game.moves.entries()) {
    const next = play(state, move);
    if (!next.ok) return { ok: false, error: { ply, code: next.code } };
    if (ply < fromPly) {
      state = next.state;
      continue;
    }
    const root = nodeOf(state);
    const mover = root.toMove;
    const played = fromRulesMove(mover, move);

    const best = search.iterate(root, limits);
    let value = best.value;
    let bestMove = best.move;
    let pv = pvMoves(rules, root, best.pv);
    let playedEval = best.value;
    if (played !== best.move) {
      // A node budget can stop this search early; the best value then stands for it.
      playedEval = search.rootValues(root, best.depth, limits, [played])?.get(played) ?? best.value;
    }
    const verdict = exactNodes > 0 ? endgameVerdict(state, move, { nodes: exactNodes }) : null;
    if (verdict !== null) {
      value = within(value, verdict.position);
      playedEval = within(playedEval, verdict.played);
      // A proved best move whose value the search's move may not reach.
      if (verdict.best !== null && verdict.position.lower !== null && verdict.position.lower === verdict.position.upper) {
        const proved = fromRulesMove(mover, verdict.best);
        if (verdict.played.lower === verdict.position.lower && verdict.played.upper === verdict.position.upper) bestMove = played;
        else if (proved !== bestMove) {
          bestMove = proved;
          pv = [verdict.best];
        }
      }
    }
    const proved = verdict !== null && (verdict.position.lower !== null || verdict.position.upper !== null) ? verdict.position : null;
    const forced = legalOf(root).length === 1;
    const pointsLost = Math.max(0, value - playedEval);
    // A proved outcome is certain: its chance is 1, ½ or 0, not the curve's.
    const before = provedChance(verdict?.position) ?? winChance(value);
    const after = provedChance(verdict?.played) ?? winChance(Math.min(playedEval, value));
    const lost = Math.max(0, before - after);
    const judged = judgeMove(lost, pointsLost);
    plies.push({
      ply,
      player: mover,
      move: toRulesMove(mover, played),
      eval: value,
      winChance: before,
      best: toRulesMove(mover, bestMove),
      pv,
      playedEval,
      pointsLost,
      chanceLost: lost,
      label: played === bestMove || forced ? 'best' : judged.label,
      accuracy: forced ? 100 : judged.accuracy,
      bestPlay: proved,
      throwsWin:
        verdict !== null &&
        verdict.position.lower !== null &&
        verdict.position.lower > 0 &&
        verdict.played.upper !== null &&
        verdict.played.upper <= 0,
    });
    state = next.state;
  }
  return { ok: true, analysis: { plies, accuracy: accuracyOf(plies) } };
}

/** The mover's chance to win when the bounds decide the outcome, else null. */
function provedChance(bounds: ProvedValue | undefined): number | null {
  if (bounds === undefined) return null;
  if (bounds.lower !== null && bounds.lower > 0) return 1;
  if (bounds.upper !== null && bounds.upper < 0) return 0;
  if (bounds.lower === 0 && bounds.upper === 0) return 0.5;
  return null;
}

/** A value moved within proved bounds. */
function within(value: number, bounds: ProvedValue): number {
  if (bounds.lower !== null && value < bounds.lower) return bounds.lower;
  if (bounds.upper !== null && value > bounds.upper) return bounds.upper;
  return value;
}

/** Each player's accuracy over the given plies: the mean of their moves' accuracies, null without a move. */
export function accuracyOf(plies: readonly Pick<PlyAnalysis, 'player' | 'accuracy'>[]): [number | null, number | null] {
  return [playerAccuracy(plies, 0), playerAccuracy(plies, 1)];
}

function playerAccuracy(plies: readonly Pick<PlyAnalysis, 'player' | 'accuracy'>[], player: Player): number | null {
  const own = plies.filter((p) => p.player === player);
  if (own.length === 0) return null;
  return own.reduce((sum, p) => sum + p.accuracy, 0) / own.length;
}
