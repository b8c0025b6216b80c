import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/**
 * Helmet's headers on every response the server makes. They are written to
 * the raw response before any handler runs, so the pages and assets of the
 * SvelteKit handler, which hijacks the reply, carry them too. The policy here
 * suits JSON and static files, which load nothing; SvelteKit replaces it on
 * each page with one that names the page's own scripts (kit.csp in
 * apps/web/svelte.config.js).
 */
export async function securityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
}
