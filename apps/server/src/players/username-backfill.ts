import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import { Prisma } from '../generated/prisma/client.js';
import { usernameSkeleton } from './username-forms.js';

const BATCH = 500;

/**
 * Gives every account without a skeleton its own: those kept before
 * skeletons existed, and all of them after a migration that emptied the
 * column because the skeleton's rules changed (a migration cannot make
 * them: it needs Unicode's tables). Safe to run on several
 * servers at once, and again: it only fills what is empty. Of two old
 * accounts that look alike, the first in id order holds the
 * skeleton; the other keeps its username, and is logged.
 */
export async function backfillUsernameSkeletons(db: Database, log: FastifyBaseLogger): Promise<number> {
  let filled = 0;
  let after: string | undefined;
  for (;;) {
    const rows = await db.prisma.player.findMany({
      where: { username: { not: null }, usernameSkeleton: null, ...(after ? { id: { gt: after } } : {}) },
      select: { id: true, username: true },
      orderBy: { id: 'asc' },
      take: BATCH,
    });
    for (const row of rows) {
      try {
        await db.prisma.player.updateMany({ where: { id: row.id, usernameSkeleton: null }, data: { usernameSkeleton: usernameSkeleton(row.username!) } });
        filled++;
      } catch (error) {
        if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')) throw error;
        log.warn({ playerId: row.id, username: row.username }, 'an account looks like another by the current rules; it keeps its username, the other holds the skeleton');
      }
    }
    if (rows.length < BATCH) return filled;
    after = rows.at(-1)!.id;
  }
}
