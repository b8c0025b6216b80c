import type { IncomingMessage } from 'node:http';

/**
 * Why a state-changing request (or a socket handshake) must be refused as
 * sent by another site, or undefined when it may go on. The session cookie
 * is SameSite=Lax, which already keeps it off cross-site POSTs in current
 * browsers; this is the second lock, for older browsers and for same-site
 * but cross-origin pages. Browsers send Sec-Fetch-Site and Origin; scripts
 * and tests send neither, and authenticate with a Bearer token no other
 * site can know. The origin's scheme counts too: a page served over plain
 * HTTP (anyone on the network can write it) is not the HTTPS site, nor the
 * other way round. `scheme` is the one the client used (clientScheme).
 */
export function crossSiteRefusal(request: IncomingMessage, scheme: 'http' | 'https'): string | undefined {
  const { headers } = request;
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') {
    return `Refused a ${fetchSite} request: only this site may make it`;
  }
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  let host: string;
  let protocol: string;
  try {
    ({ host, protocol } = new URL(origin));
  } catch {
    return 'Refused a request from an unreadable origin';
  }
  // Behind a proxy the Host header is passed on unchanged (HAProxy, nginx with proxy_set_header Host).
  if (host === '' || host !== headers.host || protocol !== `${scheme}:`) return `Refused a request from ${origin.slice(0, 100)}: only this site may make it`;
  return undefined;
}
