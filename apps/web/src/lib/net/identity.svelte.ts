import type { AccountResponse, BrowserSessionResponse, MeResponse, OkResponse, PublicPlayer } from '@oanquan/protocol';
import { apiRequest, type ApiInit, type ApiResult } from './api.js';
import type { Failure } from './client-error.js';
import { rememberWho } from './who-hint.js';

/** Where a guest token was kept before sessions moved into an httpOnly cookie. */
const LEGACY_TOKEN_KEY = 'oanquan.token';

/**
 * Who this browser plays as. The session lives in an httpOnly cookie that no
 * script (this one included) can read; the page only learns who it names.
 * A browser without a session becomes a guest; a guest may keep their
 * account, and anyone may sign in, out, or out everywhere.
 */
export class Identity {
  player = $state.raw<PublicPlayer | null>(null);
  /** Null for a guest. */
  username = $state.raw<string | null>(null);
  problem = $state.raw<Failure | null>(null);
  private pending: Promise<string | Failure> | null = null;
  private renewing: Promise<string | Failure> | null = null;
  /**
   * A sign-in or sign-out on its way. The server closes the old session's
   * socket before its answer (with the new cookie) arrives; a renewal
   * waits for that answer, or it would ask with the old cookie.
   */
  private switching: Promise<unknown> = Promise.resolve();
  /** Whether a session cookie may be there to ask about; false on a first visit, whose page the server rendered without one. */
  private mayHaveSession = true;

  /** What the server saw when it rendered the first page: whether the browser sent a session cookie. */
  sessionCookie(sent: boolean): void {
    this.mayHaveSession = sent;
  }

  /** The player's id once the server knows who this browser is (a new guest if nobody). */
  ensure(): Promise<string | Failure> {
    this.pending ??= this.establish().then((outcome) => {
      if (typeof outcome !== 'string') this.pending = null;
      return outcome;
    });
    return this.pending;
  }

  /** After the server refused the session (expired, revoked): become a guest again, once however many ask. */
  renew(): Promise<string | Failure> {
    this.renewing ??= (async () => {
      await this.switching;
      this.forget();
      try {
        return await this.ensure();
      } finally {
        this.renewing = null;
      }
    })();
    return this.renewing;
  }

  /** A REST call as this player; a refused session is renewed once. */
  async request<T>(path: string, init: Omit<ApiInit, 'token'> = {}): Promise<ApiResult<T>> {
    const who = await this.ensure();
    if (typeof who !== 'string') return who;
    const first = await apiRequest<T>(path, init);
    if (first.ok || first.status !== 401) return first;
    const renewed = await this.renew();
    if (typeof renewed !== 'string') return renewed;
    return apiRequest<T>(path, init);
  }

  async rename(name: string): Promise<Failure | null> {
    const answer = await this.request<MeResponse>('/api/me', { method: 'PATCH', body: { name } });
    if (!answer.ok) return answer;
    this.accept(answer.data);
    return null;
  }

  /** "Keep my account": this guest, with every match and the rating, gets a username and a password. */
  async keepAccount(username: string, password: string): Promise<Failure | null> {
    const answer = await this.request<AccountResponse>('/api/account', { body: { username, password } });
    if (!answer.ok) return answer;
    this.accept({ player: { id: answer.data.player.id, name: answer.data.player.name }, username: answer.data.player.username });
    return null;
  }

  /** The server ends this browser's guest session and opens the account's; the open socket reconnects as the account. */
  async signIn(username: string, password: string): Promise<Failure | null> {
    const answer = await this.switch(apiRequest<AccountResponse>('/api/session/login', { body: { username, password } }));
    if (!answer.ok) return answer;
    this.pending = Promise.resolve(answer.data.player.id);
    this.accept({ player: { id: answer.data.player.id, name: answer.data.player.name }, username: answer.data.player.username });
    return null;
  }

  async changePassword(currentPassword: string, newPassword: string): Promise<Failure | null> {
    const answer = await this.request<OkResponse>('/api/account/password', { body: { currentPassword, newPassword } });
    return answer.ok ? null : answer;
  }

  /**
   * Closes the account for good; the page goes on as a new guest. Asked
   * once: a wrong password (401) is not taken for an expired session and
   * sent again, which would spend a second try.
   */
  async closeAccount(password: string): Promise<Failure | null> {
    const answer = await this.switch(apiRequest<OkResponse>('/api/account/close', { body: { password, confirm: true } }));
    if (!answer.ok) return answer;
    const renewed = await this.renew();
    return typeof renewed === 'string' ? null : renewed;
  }

  /** Signs this browser (or every device) out; the page goes on as a new guest. */
  async signOut(everywhere = false): Promise<Failure | null> {
    const answer = await this.switch(this.request<OkResponse>(everywhere ? '/api/session/logout-all' : '/api/session/logout', { method: 'POST' }));
    if (!answer.ok) return answer;
    const renewed = await this.renew();
    return typeof renewed === 'string' ? null : renewed;
  }

  private switch<T>(call: Promise<T>): Promise<T> {
    this.switching = call;
    return call;
  }

  private forget(): void {
    this.pending = null;
    this.player = null;
    this.username = null;
  }

  private async establish(): Promise<string | Failure> {
    const traded = await tradeLegacyToken();
    if (traded !== null && !traded.ok && traded.status !== 401) return this.fail(traded);
    if (traded?.ok) return this.accept(traded.data);
    if (this.mayHaveSession) {
      const me = await apiRequest<MeResponse>('/api/me');
      if (me.ok) return this.accept(me.data);
      if (me.status !== 401) return this.fail(me);
    }
    const session = await apiRequest<BrowserSessionResponse>('/api/session', { method: 'POST' });
    if (!session.ok) return this.fail(session);
    return this.accept({ player: session.data.player, username: null });
  }

  private accept(me: MeResponse): string {
    // A session's cookie came with this answer: from now on there is one to ask about.
    this.mayHaveSession = true;
    this.player = me.player;
    this.username = me.username;
    this.problem = null;
    rememberWho(me.username === null ? 'guest' : 'account');
    return me.player.id;
  }

  private fail(problem: Failure): Failure {
    this.problem = problem;
    return problem;
  }
}

/**
 * A guest from before cookies still has their token in localStorage: the
 * server trades it for the cookie once, and then it is removed, so no
 * script can find it again. A token the server refuses is removed too.
 */
async function tradeLegacyToken(): Promise<ApiResult<MeResponse> | null> {
  let token: string | null;
  try {
    token = localStorage.getItem(LEGACY_TOKEN_KEY);
  } catch {
    return null;
  }
  if (!token) return null;
  const traded = await apiRequest<MeResponse>('/api/session/cookie', { method: 'POST', token });
  if (traded.ok || traded.status === 401) {
    try {
      localStorage.removeItem(LEGACY_TOKEN_KEY);
    } catch {
      // Unavailable storage cannot be holding the token either.
    }
  }
  return traded;
}

let shared: Identity | undefined;

/** The one identity of this tab (browser only). */
export function identity(): Identity {
  shared ??= new Identity();
  return shared;
}
