import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { PAGE_ERROR_CHANNEL, type PageError } from '@oanquan/protocol';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The service worker is served here rather than among the static files: read
 * at each request, so a new build's worker is what the browser's update
 * check gets, never a copy cached by the server, and with headers of its
 * own. Its policy is the worker's own (a worker follows the policy its
 * script came with, not the page's): it fetches from this origin and loads
 * nothing else. `no-cache`: every update check asks the server.
 */
const SERVICE_WORKER_PATH = '/service-worker.js';
const SERVICE_WORKER_HEADERS = {
  'content-type': 'text/javascript; charset=utf-8',
  'cache-control': 'no-cache',
  'content-security-policy': "default-src 'none'; connect-src 'self'",
};

type NodeHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * Serves the built SvelteKit app (adapter-node's handler) for every path the
 * API does not own. It lives in a scope of its own without body parsers so
 * SvelteKit reads request bodies itself. The handler loads while the rest of
 * the process starts and is not waited on: the API, the sockets and the
 * readiness check do not need it, and a page asked for before it is loaded
 * waits for it.
 */
export async function webRoutes(app: FastifyInstance, { buildDir }: { buildDir: string }) {
  const handlerFile = path.join(buildDir, 'handler.js');
  if (!existsSync(handlerFile)) {
    app.log.warn({ handlerFile }, 'web app not built; only the API is served (run pnpm build)');
    return;
  }
  const loading = import(pathToFileURL(handlerFile).href).then((module: { handler: NodeHandler }) => module.handler);
  // A handler that fails to load fails each page with it, logged, rather than the process.
  loading.catch((error: unknown) => app.log.error({ err: error, handlerFile }, 'web app failed to load'));
  // The pages' failures, logged as JSON like everything else; a page not found is no fault of the server.
  const logPageError = (message: unknown) => {
    const { error, status, method, path: url } = message as PageError;
    if (status >= 500) app.log.error({ err: error, status, method, url }, 'page failed');
    else app.log.info({ status, method, url }, 'page refused');
  };
  subscribe(PAGE_ERROR_CHANNEL, logPageError);
  app.addHook('onClose', async () => {
    unsubscribe(PAGE_ERROR_CHANNEL, logPageError);
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.get(SERVICE_WORKER_PATH, async (_request, reply) => {
    const script = await readFile(path.join(buildDir, 'client', SERVICE_WORKER_PATH)).catch(() => null);
    if (!script) return reply.code(404).type('text/plain').send('Not found');
    return reply.headers(SERVICE_WORKER_HEADERS).send(script);
  });
  app.all('/*', async (request, reply) => {
    const handler = await loading;
    reply.hijack();
    handler(request.raw, reply.raw, () => {
      reply.raw.statusCode = 404;
      reply.raw.end('Not found');
    });
  });
}
