import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ErrorCode,
  changePasswordRequest,
  closeAccountRequest,
  createAccountRequest,
  LANG_COOKIE,
  loginRequest,
  pickLanguage,
  renameRequest,
  type AccountResponse,
  type BrowserSessionResponse,
  type MeResponse,
  type OkResponse,
  type SessionResponse,
} from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { SignInThrottle } from '../limits/sign-in-throttle.js';
import type { AccountClosure } from '../players/account-closure.js';
import type { Accounts } from '../players/accounts.js';
import type { Cost, CostBudgets } from '../players/cost-budgets.js';
import type { KnownDevices } from '../players/known-devices.js';
import { usernameKey } from '../players/username-forms.js';
import type { Identity, PlayerService } from '../players/player-service.js';
import {
  clearDeviceCookie,
  clearSessionCookie,
  deviceCookie,
  fromBrowser,
  sessionToken,
  setDeviceCookie,
  setSessionCookie,
  type CookieSecure,
} from './session-cookie.js';
import { requestAddress } from './client-address.js';
import { parseInput } from './validate.js';

export { bearerToken } from './session-cookie.js';

// The rate limiter and the handler both ask who sent a request; one lookup answers both.
const identified = new WeakMap<FastifyRequest, Promise<Identity>>();

export function requireIdentity(players: PlayerService, request: FastifyRequest): Promise<Identity> {
  let identity = identified.get(request);
  if (!identity) {
    identity = players.identify(sessionToken(request));
    identified.set(request, identity);
  }
  return identity;
}

export async function requirePlayer(players: PlayerService, request: FastifyRequest) {
  return (await requireIdentity(players, request)).player;
}

/** The player, once what they ask for is paid from their budgets and the address's (and their row made, for a guest). */
export async function requirePaidPlayer(players: PlayerService, costs: CostBudgets, request: FastifyRequest, cost: Cost) {
  const identity = await requireIdentity(players, request);
  await costs.pay(cost, identity, requestAddress(request));
  return identity.player;
}

export interface SessionRouteOptions {
  players: PlayerService;
  accounts: Accounts;
  closures: AccountClosure;
  costs: CostBudgets;
  cookieSecure: CookieSecure;
  signIns: SignInThrottle;
  devices: KnownDevices;
  deviceTtlMs: number;
}

/**
 * Who one is: guests, accounts and their sessions. Every answer that opens
 * a session sets the httpOnly cookie; the token itself is in the body only
 * for clients that are not browsers.
 */
export async function sessionRoutes(app: FastifyInstance, options: SessionRouteOptions) {
  const { players, accounts, closures, costs, cookieSecure, signIns, devices, deviceTtlMs } = options;
  const opened = <P>(request: FastifyRequest, reply: FastifyReply, token: string, player: P) => {
    setSessionCookie(request, reply, token, cookieSecure);
    return fromBrowser(request) ? { player } : { player, token };
  };

  app.post('/session', async (request, reply): Promise<SessionResponse | BrowserSessionResponse> => {
    const guest = await players.newGuest(pickLanguage(request.cookies[LANG_COOKIE], request.headers['accept-language']));
    reply.status(201);
    return opened(request, reply, guest.token, guest.player);
  });

  // A browser that kept its guest token in localStorage (before sessions were cookies) trades it for the cookie once.
  app.post('/session/cookie', async (request, reply): Promise<MeResponse> => {
    const identity = await requireIdentity(players, request);
    setSessionCookie(request, reply, sessionToken(request)!, cookieSecure);
    return me(identity);
  });

  app.post('/session/login', async (request, reply): Promise<AccountResponse> => {
    const { username, password } = parseInput(loginRequest, request.body);
    const address = requestAddress(request);
    const key = usernameKey(username);
    // A browser that signed in to this account before is judged on its own failures, not on strangers'.
    const device = await devices.recognise(deviceCookie(request), key);
    await (device ? signIns.admitDevice(device) : signIns.admit(address, key));
    const signedIn = await accounts.login(username, password).catch(async (error: unknown) => {
      if (error instanceof ServiceError && error.code === ErrorCode.BadCredentials) {
        await (device ? signIns.deviceFailed(device) : signIns.failed(address, key));
      }
      throw error;
    });
    await signIns.succeeded(address, key, device);
    setDeviceCookie(request, reply, await devices.remember(deviceCookie(request), key, device), deviceTtlMs / 1000, cookieSecure);
    // The guest this browser was before is left behind, not merged: its session ends here.
    const before = await requireIdentity(players, request).catch(() => null);
    if (before?.session && before.session.id !== signedIn.session.id) await players.sessions.revoke(before.session.id);
    return opened(request, reply, signedIn.token, signedIn.player);
  });

  // Signing out of a session that already ended (expired, revoked elsewhere) still clears the browser's cookie.
  // A guest's signed token has no session to end: clearing the cookie is signing out.
  app.post('/session/logout', async (request, reply): Promise<OkResponse> => {
    const identity = await requireIdentity(players, request).catch((error: unknown) => {
      if (error instanceof ServiceError) return null;
      throw error;
    });
    if (identity?.session) await players.sessions.revoke(identity.session.id);
    clearSessionCookie(request, reply, cookieSecure);
    return { ok: true };
  });

  app.post('/session/logout-all', async (request, reply): Promise<OkResponse> => {
    const identity = await requireIdentity(players, request);
    await players.sessions.revokeAllOf(identity.player.id);
    clearSessionCookie(request, reply, cookieSecure);
    return { ok: true };
  });

  // An account is reached through sessions only, so a guest who came with a signed token is given one.
  app.post('/account', async (request, reply): Promise<AccountResponse> => {
    const identity = await requireIdentity(players, request);
    const { username, password } = parseInput(createAccountRequest, request.body);
    const player = await accounts.keep(identity, username, password);
    reply.status(201);
    if (identity.session) return { player };
    const { token } = await players.sessions.open(player.id);
    return opened(request, reply, token, player);
  });

  app.post('/account/password', async (request): Promise<OkResponse> => {
    const identity = await requireIdentity(players, request);
    const { currentPassword, newPassword } = parseInput(changePasswordRequest, request.body);
    await accounts.changePassword(identity, currentPassword, newPassword);
    return { ok: true };
  });

  // Closing for good (account-closure.ts). The second of two closings at once finds it closed and answers the same.
  // A wrong password is refused (401) and changes nothing; each try is paid from the account's and the address's budgets.
  app.post('/account/close', async (request, reply): Promise<OkResponse> => {
    const identity = await requireIdentity(players, request);
    const { password } = parseInput(closeAccountRequest, request.body);
    await costs.pay('close', identity, requestAddress(request));
    await closures.close(identity, password);
    clearSessionCookie(request, reply, cookieSecure);
    clearDeviceCookie(request, reply, cookieSecure);
    return { ok: true };
  });

  // A guest token's expiry is signed in, so a browser that comes back is given a fresh one, as a session's expiry moves with use.
  app.get('/me', async (request, reply): Promise<MeResponse> => {
    const identity = await requireIdentity(players, request);
    if (!identity.session && fromBrowser(request)) setSessionCookie(request, reply, await players.guests.sign(identity.player), cookieSecure);
    return me(identity);
  });

  app.patch('/me', async (request): Promise<MeResponse> => {
    const identity = await requireIdentity(players, request);
    const { name } = parseInput(renameRequest, request.body);
    await costs.pay('name', identity, requestAddress(request));
    return me({ ...identity, player: await players.rename(identity.player.id, name) });
  });
}

function me(identity: Identity): MeResponse {
  return { player: identity.player, username: identity.username };
}
