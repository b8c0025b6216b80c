import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/** Helmet's own default: a year, subdomains included. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Helmet's headers on every response the server makes. They are written to
 * the raw response before any handler runs, so the pages and assets of the
 * SvelteKit handler, which hijacks the reply, carry them too. The policy here
 * suits JSON and static files, which load nothing; SvelteKit replaces it on
 * each page with one that names the page's own scripts (kit.csp in
 * apps/web/svelte.config.js). HSTS goes only with responses over HTTPS
 * (RFC 6797 8.1: a host must not send it over plain HTTP, where anyone on
 * the way could have written it), judged by `schemeOf` (clientScheme).
 */
export async function securityHeaders(app: FastifyInstance, schemeOf: (request: IncomingMessage) => 'http' | 'https') {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (schemeOf(request.raw) === 'https') reply.raw.setHeader('Strict-Transport-Security', HSTS);
  });
}
