import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * The client's address under the TRUST_PROXY setting, judged as Fastify
 * judges a request's (the same library), so the limits of one person count
 * their sockets and their requests alike. Behind a proxy without the setting,
 * every client would share the proxy's address.
 */
export function clientAddress(trustProxy: boolean | string): (request: IncomingMessage) => string {
  if (trustProxy === false) return (request) => request.socket.remoteAddress ?? '';
  const trust = trustProxy === true ? () => true : proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()));
  return (request) => proxyAddr(request, trust);
}
