import type { AnalysisResponse } from '@oanquan/protocol';
import { apiRequest } from '../net/api.js';
import type { Failure } from '../net/client-error.js';
import { identity } from '../net/identity.svelte.js';

/** How often a page waiting on an analysis asks how far it has got. */
const POLL_MS = 1000;

/** The engine's analysis of one match as the replay page knows it: read, asked for, followed until done. */
export class AnalysisState {
  data = $state.raw<AnalysisResponse | null>(null);
  problem = $state.raw<Failure | null>(null);
  asking = $state(false);
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  /** The match is read through a getter: the page's id is a prop. */
  constructor(private readonly matchId: () => string) {}

  get pending(): boolean {
    return this.data?.status === 'queued' || this.data?.status === 'running';
  }

  async load(): Promise<void> {
    const answer = await apiRequest<AnalysisResponse>(`/api/matches/${encodeURIComponent(this.matchId())}/analysis`);
    if (this.stopped) return;
    if (!answer.ok) {
      this.problem = answer;
      return;
    }
    this.data = answer.data;
    this.follow();
  }

  async request(): Promise<void> {
    this.asking = true;
    this.problem = null;
    const answer = await identity().request<AnalysisResponse>(`/api/matches/${encodeURIComponent(this.matchId())}/analysis`, { method: 'POST' });
    this.asking = false;
    if (this.stopped) return;
    if (!answer.ok) {
      this.problem = answer;
      return;
    }
    this.data = answer.data;
    this.follow();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private follow(): void {
    clearTimeout(this.timer);
    if (this.pending && !this.stopped) this.timer = setTimeout(() => void this.load(), POLL_MS);
  }
}
