import type { PuzzleAttemptResponse, PuzzleView } from '@oanquan/protocol';
import { legalMoves, play, stateFromPosition, type Move, type State } from '@oanquan/rules';
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
  solverChange = $state.raw<RatingChange | null>(null);
  puzzleChange = $state.raw<RatingChange | null>(null);
  /** The line, once the verdict is in. */
  line = $state.raw<readonly Move[] | null>(null);
  readonly animator: BoardAnimator;
  private moves: Move[] = [];

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

  async load(wanted: PuzzleWanted): Promise<void> {
    this.animator.stop();
    this.phase = 'loading';
    this.moves = [];
    this.lastMove = null;
    this.solverChange = this.puzzleChange = null;
    this.line = null;
    const path = wanted.kind === 'id' ? `/api/puzzles/${wanted.id}` : `/api/puzzles/${wanted.kind}`;
    const answer = await this.request<PuzzleView>(path);
    if (!answer.ok) {
      this.problem = answer;
      // 204: no puzzle of the day yet (a new site still making its first).
      this.phase = answer.code === 'PUZZLE_NOT_FOUND' || answer.status === 204 ? 'empty' : 'problem';
      return;
    }
    this.view = answer.data;
    this.game = stateFromPosition(answer.data.position, answer.data.rules);
    this.phase = 'solving';
  }

  async move(move: Move): Promise<void> {
    const view = this.view;
    if (!view || this.phase !== 'solving') return;
    this.show(move);
    this.moves.push(move);
    this.phase = 'checking';
    const answer = await this.request<PuzzleAttemptResponse>(`/api/puzzles/${view.id}/attempts`, { method: 'POST', body: { moves: this.moves } });
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
    this.line = verdict.line;
    this.phase = verdict.status;
  }

  /** Shows the line again from the puzzle's position. */
  replayLine(): void {
    const view = this.view;
    if (!view || !this.line) return;
    this.animator.stop();
    this.game = stateFromPosition(view.position, view.rules);
    this.lastMove = null;
    for (const move of this.line) this.show(move);
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
