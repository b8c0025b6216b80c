import { followMove, type PlayedMove, type PuzzleAttemptResponse, type PuzzleView } from '@oanquan/protocol';
import { legalMoves, play, stateFromPosition, type Move, type PlyEvent, type State } from '@oanquan/rules';
import { BoardAnimator } from '$lib/board/board-animator.svelte';
import { restingFrame, type BoardFrame } from '$lib/board/frames';
import type { ApiResult } from '$lib/net/api';
import type { Failure } from '$lib/net/client-error';

export type PuzzlePhase = 'loading' | 'solving' | 'checking' | 'solved' | 'failed' | 'empty' | 'problem';

/** Which puzzle to ask for. */
export type PuzzleWanted = { kind: 'next' } | { kind: 'daily' } | { kind: 'id'; id: string };

export interface RatingChange {
  before: number;
  after: number;
}

export interface SolverChange extends RatingChange {
  provisionalBefore: boolean;
  provisionalAfter: boolean;
}

/** The line as the game log lists moves: numbered from 1 in the puzzle, each with what it did. */
export interface Solution {
  moves: readonly PlayedMove[];
  events: readonly (readonly PlyEvent[])[];
}

type Request = <T>(path: string, init?: { method?: 'GET' | 'POST'; body?: unknown }) => Promise<ApiResult<T>>;

/**
 * One puzzle being solved: the solver plays on the board, each move is sent
 * with the ones before it and the server answers with the opponent's reply
 * or the verdict (it alone holds the line). After the verdict the whole line
 * is shown from the puzzle's position, stone by stone.
 */
export class PuzzleSession {
  view = $state.raw<PuzzleView | null>(null);
  phase = $state<PuzzlePhase>('loading');
  problem = $state.raw<Failure | null>(null);
  game = $state.raw<State | null>(null);
  lastMove = $state.raw<Move | null>(null);
  solverChange = $state.raw<SolverChange | null>(null);
  puzzleChange = $state.raw<RatingChange | null>(null);
  /** The puzzle's counts of rated tries and solutions, as the verdict gave them (the view's are from before the try). */
  counts = $state.raw<{ attempts: number; solved: number } | null>(null);
  /** The line, once the verdict is in. */
  solution = $state.raw<Solution | null>(null);
  /** How many of the line's moves the board shows, once the verdict is in (none after a wrong move). */
  private shownOfLine = $state(0);
  readonly animator: BoardAnimator;
  private moves: Move[] = [];
  /** Counts loads, so that an answer to an earlier one (a quick "back") is dropped. */
  private loads = 0;

  constructor(
    private readonly request: Request,
    motionFactor: () => number,
  ) {
    this.animator = new BoardAnimator(motionFactor);
  }

  get frame(): BoardFrame | null {
    return this.animator.frame ?? (this.game ? restingFrame(this.game.position) : null);
  }

  /** The solver's moves now: none while a move is checked, animated, or after the verdict. */
  get legal(): readonly Move[] {
    if (this.phase !== 'solving' || !this.game || this.animator.busy) return [];
    return legalMoves(this.game);
  }

  /** The move of the line the board shows or is sowing, counted from 1; 0 for none. */
  get solutionAt(): number {
    const view = this.view;
    const sowing = this.animator.ply;
    if (!view || !this.solution) return 0;
    return sowing === null ? this.shownOfLine : sowing - view.position.ply;
  }

  /** Asks for a puzzle; true when it is shown, false on a problem or when a later load overtook this one. */
  async load(wanted: PuzzleWanted): Promise<boolean> {
    const load = ++this.loads;
    this.animator.stop();
    this.phase = 'loading';
    this.moves = [];
    this.lastMove = null;
    this.solverChange = this.puzzleChange = this.counts = this.solution = null;
    const path = wanted.kind === 'id' ? `/api/puzzles/${encodeURIComponent(wanted.id)}` : `/api/puzzles/${wanted.kind}`;
    const answer = await this.request<PuzzleView>(path);
    if (load !== this.loads) return false;
    if (!answer.ok) {
      this.problem = answer;
      // 204: no puzzle of the day yet (a new site still making its first).
      this.phase = answer.code === 'PUZZLE_NOT_FOUND' || answer.status === 204 ? 'empty' : 'problem';
      return false;
    }
    this.view = answer.data;
    this.game = stateFromPosition(answer.data.position, answer.data.rules);
    this.phase = 'solving';
    return true;
  }

  async move(move: Move): Promise<void> {
    const view = this.view;
    if (!view || this.phase !== 'solving') return;
    this.show(move);
    this.moves.push(move);
    this.phase = 'checking';
    const load = this.loads;
    const answer = await this.request<PuzzleAttemptResponse>(`/api/puzzles/${view.id}/attempts`, { method: 'POST', body: { moves: this.moves } });
    if (load !== this.loads) return;
    if (!answer.ok) {
      this.problem = answer;
      this.phase = 'problem';
      return;
    }
    const verdict = answer.data;
    if (verdict.status === 'continue') {
      this.show(verdict.reply);
      this.phase = 'solving';
      return;
    }
    this.solverChange = verdict.solver;
    this.puzzleChange = verdict.puzzle;
    this.counts = { attempts: verdict.attempts, solved: verdict.solved };
    this.solution = solutionOf(stateFromPosition(view.position, view.rules), verdict.line);
    this.shownOfLine = verdict.status === 'solved' ? verdict.line.length : 0;
    this.phase = verdict.status;
  }

  /** Shows the line again from the puzzle's position. */
  replayLine(): void {
    const view = this.view;
    if (!view || !this.solution) return;
    this.animator.stop();
    this.game = stateFromPosition(view.position, view.rules);
    this.lastMove = null;
    for (const move of this.solution.moves) this.show(move);
    this.shownOfLine = this.solution.moves.length;
  }

  /** Plays a move on the board, animated; a move the rules refuse is ignored (the server said it, so it is legal). */
  private show(move: Move): void {
    if (!this.game) return;
    const result = play(this.game, move);
    if (!result.ok) return;
    this.animator.play(this.game.position, result.events, result.state.position);
    this.game = result.state;
    this.lastMove = move;
  }
}

/** The line played from the puzzle's position, numbered from 1; it stops at a move the rules refuse (none: the server checked it). */
function solutionOf(start: State, line: readonly Move[]): Solution {
  const moves: PlayedMove[] = [];
  const events: (readonly PlyEvent[])[] = [];
  let state = start;
  for (const move of line) {
    const followed = followMove(state, { ...move, clocks: null });
    if (!followed) break;
    moves.push({ ...followed.move, ply: moves.length + 1 });
    events.push(followed.events);
    state = followed.state;
  }
  return { moves, events };
}
