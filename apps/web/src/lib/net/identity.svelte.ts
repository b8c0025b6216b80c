import type { MeResponse, PublicPlayer, SessionResponse } from '@oanquan/protocol';
import { apiRequest, type ApiInit, type ApiResult } from './api.js';
import type { Failure } from './client-error.js';

const TOKEN_KEY = 'oanquan.token';

/**
 * Who this browser plays as: a guest token kept in localStorage, made on
 * first use and made again when the server no longer knows it (401).
 */
export class Identity {
  player = $state.raw<PublicPlayer | null>(null);
  problem = $state.raw<Failure | null>(null);
  private token: string | null = null;
  private pending: Promise<string | Failure> | null = null;

  /** The token to use, after making sure the server knows it. */
  ensure(): Promise<string | Failure> {
    this.pending ??= this.establish().then((outcome) => {
      if (typeof outcome !== 'string') this.pending = null;
      return outcome;
    });
    return this.pending;
  }

  /** The token this browser holds, checked or not (for when the check itself failed). */
  held(): string | null {
    return this.token ?? readStored();
  }

  /** Forgets a token the server refused and starts a new guest. */
  renew(): Promise<string | Failure> {
    this.forget();
    return this.ensure();
  }

  /** A REST call as this player; a refused token is renewed once. */
  async request<T>(path: string, init: Omit<ApiInit, 'token'> = {}): Promise<ApiResult<T>> {
    const token = await this.ensure();
    if (typeof token !== 'string') return token;
    const first = await apiRequest<T>(path, { ...init, token });
    if (first.ok || first.status !== 401) return first;
    const renewed = await this.renew();
    if (typeof renewed !== 'string') return renewed;
    return apiRequest<T>(path, { ...init, token: renewed });
  }

  async rename(name: string): Promise<Failure | null> {
    const answer = await this.request<MeResponse>('/api/me', { method: 'PATCH', body: { name } });
    if (!answer.ok) return answer;
    this.player = answer.data.player;
    return null;
  }

  private forget(): void {
    this.token = null;
    this.pending = null;
    this.player = null;
    try {
      localStorage.removeItem(TOKEN_KEY);
    } catch {
      // Storage may be unavailable (private mode); the token then lives for this page only.
    }
  }

  private async establish(): Promise<string | Failure> {
    const stored = this.token ?? readStored();
    if (stored) {
      const me = await apiRequest<MeResponse>('/api/me', { token: stored });
      if (me.ok) return this.accept(stored, me.data.player);
      if (me.status !== 401) return this.fail(me);
    }
    const session = await apiRequest<SessionResponse>('/api/session', { method: 'POST' });
    if (!session.ok) return this.fail(session);
    try {
      localStorage.setItem(TOKEN_KEY, session.data.token);
    } catch {
      // See forget().
    }
    return this.accept(session.data.token, session.data.player);
  }

  private accept(token: string, player: PublicPlayer): string {
    this.token = token;
    this.player = player;
    this.problem = null;
    return token;
  }

  private fail(problem: Failure): Failure {
    this.problem = problem;
    return problem;
  }
}

function readStored(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

let shared: Identity | undefined;

/** The one identity of this tab (browser only). */
export function identity(): Identity {
  shared ??= new Identity();
  return shared;
}
