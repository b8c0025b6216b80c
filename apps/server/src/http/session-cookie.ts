import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '@oanquan/protocol';

export type CookieSecure = 'auto' | 'true' | 'false';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
}

/** A Bearer token (scripts, tests) wins over the cookie (browsers). */
export function sessionToken(request: FastifyRequest): string | undefined {
  return bearerToken(request) ?? request.cookies[SESSION_COOKIE];
}

/** Browsers say where a request comes from; scripts and tests do not. A browser is never shown a session token. */
export function fromBrowser(request: FastifyRequest): boolean {
  return request.headers['sec-fetch-site'] !== undefined || request.headers.origin !== undefined;
}

// The longest browsers keep a cookie. The session's own expiry, kept and moved forward on the server, is what counts.
const COOKIE_MAX_AGE_S = 400 * 24 * 3600;

/** httpOnly so no script on the page can read it; Lax so other sites' forms do not carry it. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, secure: CookieSecure): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(request, secure),
    maxAge: COOKIE_MAX_AGE_S,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, secure: CookieSecure): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(request, secure) });
}

// Sent only with sign-ins, the one request that reads it.
const DEVICE_COOKIE = 'oq_device';
const DEVICE_COOKIE_PATH = '/api/session/login';

/** The known-device entries this browser presents (see KnownDevices). */
export function deviceCookie(request: FastifyRequest): string | undefined {
  return request.cookies[DEVICE_COOKIE];
}

/** Kept by the browser as long as its newest entry lasts; httpOnly like the session, and never sent to another path. */
export function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, value: string, maxAgeS: number, secure: CookieSecure): void {
  reply.setCookie(DEVICE_COOKIE, value, {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(request, secure),
    maxAge: Math.min(Math.ceil(maxAgeS), COOKIE_MAX_AGE_S),
  });
}

/** This browser's known-device entries, forgotten with the account they were for. */
export function clearDeviceCookie(request: FastifyRequest, reply: FastifyReply, secure: CookieSecure): void {
  reply.clearCookie(DEVICE_COOKIE, { path: DEVICE_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: isSecure(request, secure) });
}

// Plain HTTP on localhost is development and tests; anywhere else a session only travels encrypted.
function isSecure(request: FastifyRequest, secure: CookieSecure): boolean {
  if (secure !== 'auto') return secure === 'true';
  return !LOCAL_HOSTS.has(request.hostname);
}
