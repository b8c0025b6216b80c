import type { IncomingHttpHeaders } from 'node:http';

/**
 * Why a state-changing request (or a socket handshake) must be refused as
 * sent by another site, or undefined when it may go on. The session cookie
 * is SameSite=Lax, which already keeps it off cross-site POSTs in current
 * browsers; this is the second lock, for older browsers and for same-site
 * but cross-origin pages. Browsers send Sec-Fetch-Site and Origin; scripts
 * and tests send neither, and authenticate with a Bearer token no other
 * site can know.
 */
export function crossSiteRefusal(headers: IncomingHttpHeaders): string | undefined {
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') {
    return `Refused a ${fetchSite} request: only this site may make it`;
  }
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return 'Refused a request from an unreadable origin';
  }
  // Behind a proxy the Host header is passed on unchanged (HAProxy, nginx with proxy_set_header Host).
  if (host === '' || host !== headers.host) return `Refused a request from ${origin.slice(0, 100)}: only this site may make it`;
  return undefined;
}
