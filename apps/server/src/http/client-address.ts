import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';

type Trust = (address: string, hop: number) => boolean;

/** Which peers may speak for the client in X-Forwarded-* headers, under the TRUST_PROXY setting; undefined for none. */
function trustOf(trustProxy: boolean | string): Trust | undefined {
  if (trustProxy === false) return undefined;
  return trustProxy === true ? () => true : proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()));
}

/**
 * The client's address under the TRUST_PROXY setting, judged as Fastify
 * judges a request's (the same library), so the limits of one person count
 * their sockets and their requests alike. Behind a proxy without the setting,
 * every client would share the proxy's address.
 */
export function clientAddress(trustProxy: boolean | string): (request: IncomingMessage) => string {
  const trust = trustOf(trustProxy);
  if (!trust) return (request) => request.socket.remoteAddress ?? '';
  return (request) => proxyAddr(request, trust);
}

/**
 * The scheme the client used: this connection's own, or, from a trusted
 * proxy (TLS ended there), the first X-Forwarded-Proto. A header from a peer
 * that is not trusted is anyone's word and counts for nothing.
 */
export function clientScheme(trustProxy: boolean | string): (request: IncomingMessage) => 'http' | 'https' {
  const trust = trustOf(trustProxy);
  return (request) => {
    if ((request.socket as Partial<TLSSocket>).encrypted) return 'https';
    const forwarded = request.headers['x-forwarded-proto'];
    if (!trust || typeof forwarded !== 'string' || !trust(request.socket.remoteAddress ?? '', 0)) return 'http';
    return forwarded.split(',')[0]!.trim().toLowerCase() === 'https' ? 'https' : 'http';
  };
}

/** The address a request is counted against: an IPv6 client's whole /64, which is what one client is given. */
export function requestAddress(request: FastifyRequest): string {
  return normalizeIP(request.ip);
}
