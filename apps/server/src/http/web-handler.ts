import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { PAGE_ERROR_CHANNEL, type PageError } from '@oanquan/protocol';
import type { IncomingMessage, ServerResponse } from 'node:http';

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
  app.all('/*', async (request, reply) => {
    const handler = await loading;
    reply.hijack();
    handler(request.raw, reply.raw, () => {
      reply.raw.statusCode = 404;
      reply.raw.end('Not found');
    });
  });
}
