import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@oanquan/protocol';
import type { AccountExport } from '../data-export/account-export.js';
import type { ExportLimits } from '../data-export/export-limits.js';
import { ServiceError } from '../errors.js';
import type { PlayerService } from '../players/player-service.js';
import { requestAddress } from './client-address.js';
import { crossSiteRefusal } from './same-site.js';
import { requireIdentity } from './session-routes.js';

export interface ExportRouteOptions {
  players: PlayerService;
  exporter: AccountExport;
  limits: ExportLimits;
  schemeOf: (request: IncomingMessage) => 'http' | 'https';
  /** A download whose reader takes nothing more for this long is cut, so that a reader who stops cannot hold its place for ever. */
  stallMs: number;
}

/** The download's name: the username (a guest's id, for one without), and the day, in a form every browser keeps. */
export function exportFileName(player: { id: string }, username: string | null, day: Date): string {
  return `oanquan-${username ?? `guest-${player.id.slice(0, 8)}`}-${day.toISOString().slice(0, 10)}.json`;
}

/** RFC 6266: an ASCII name for old clients, the exact one (a Vietnamese username) in filename*. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\w.-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * GET /api/account/export: everything the site holds about the asker, guest
 * or account, streamed as one JSON file (docs/data-export.md). A GET, yet
 * refused from another site as writes are: each one spends the asker's
 * budget, which another site must not spend for them.
 */
export async function exportRoutes(app: FastifyInstance, { players, exporter, limits, schemeOf, stallMs }: ExportRouteOptions) {
  app.get('/account/export', async (request, reply) => {
    const refusal = crossSiteRefusal(request.raw, schemeOf(request.raw));
    if (refusal) throw new ServiceError(ErrorCode.CrossSite, refusal, 403);
    const identity = await requireIdentity(players, request);
    const { release } = await limits.admit(identity.player.id, requestAddress(request));
    const now = new Date();
    const pieces = exporter.document(identity, now);
    let stalled: NodeJS.Timeout | undefined;
    const body = Readable.from(
      (async function* () {
        for await (const piece of pieces) {
          // Counted while a piece waits for the reader (a full socket stops the pulls), not while the database is read.
          stalled = setTimeout(() => body.destroy(new Error('download stalled: its reader took nothing for too long')), stallMs);
          yield piece;
          clearTimeout(stalled);
        }
      })(),
      { objectMode: false },
    );
    // Ended, failed, cut or abandoned by the client: the place is given back once the stream closes.
    body.once('close', () => {
      clearTimeout(stalled);
      release();
    });
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', attachment(exportFileName(identity.player, identity.username, now)))
      .header('cache-control', 'no-store')
      .send(body);
  });
}
