import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import { logFailure } from '../errors.js';
import { PeriodicTask } from '../periodic-task.js';
import { playerChannel, type GameServer } from '../realtime/game-server.js';
import type { ChallengeService } from './challenge-service.js';

/** Who the challenges are between (a tick on every process every two seconds: prepared statements, not Prisma's query compiler). */
const challengePeopleStatement = {
  name: 'challenge-people',
  text: 'SELECT creator_id::text AS "creatorId", target_id::text AS "targetId" FROM challenge',
};

/** The challenges that lapsed or whose creator or target has been gone past the grace (`$1` ms), deleted. */
const challengeSweepStatement = {
  name: 'challenge-sweep',
  text: `
    DELETE FROM challenge
    WHERE expires_at <= now()
       OR creator_seen_at < now() - $1::int * interval '1 millisecond'
       OR (target_id IS NOT NULL AND target_seen_at < now() - $1::int * interval '1 millisecond')
    RETURNING id::text AS id, creator_id::text AS creator_id, target_id::text AS target_id, coalesce(expires_at <= now(), false) AS lapsed`,
};

/**
 * Keeps challenges alive while their people are here, and ends the others.
 * Each tick, every process renews the seen times of the creators and
 * targets connected to it (judged from its own sockets, so no process asks
 * another), then deletes the challenges whose creator or target has been
 * gone past the grace, or that lapsed. A process that dies renews nothing,
 * so its people's challenges go the same way. Any process may delete: the
 * DELETE … RETURNING hands each row to one of them, which tells the others.
 */
export class ChallengeKeeper {
  private readonly ticks: PeriodicTask;

  constructor(
    private readonly db: Database,
    private readonly io: GameServer,
    private readonly challenges: ChallengeService,
    private readonly log: FastifyBaseLogger,
    private readonly settings: { tickMs: number; graceMs: number },
  ) {
    this.ticks = new PeriodicTask(() => this.tick(), settings.tickMs);
  }

  start(): void {
    this.ticks.start();
  }

  stop(): Promise<void> {
    return this.ticks.stop();
  }

  async tick(): Promise<void> {
    try {
      await this.renew();
      await this.sweep();
    } catch (error) {
      logFailure(this.log, error, {}, 'challenge upkeep failed');
    }
  }

  private async renew(): Promise<void> {
    const people = await this.db.sql.query<{ creatorId: string; targetId: string | null }>(challengePeopleStatement, []);
    const here = (id: string) => (this.io.of('/').adapter.rooms.get(playerChannel(id))?.size ?? 0) > 0;
    const creators = [...new Set(people.map((row) => row.creatorId))].filter(here);
    const targets = [...new Set(people.flatMap((row) => (row.targetId === null ? [] : [row.targetId])))].filter(here);
    if (creators.length > 0) await this.db.prisma.$executeRaw`UPDATE challenge SET creator_seen_at = now() WHERE creator_id = ANY(${creators}::uuid[])`;
    if (targets.length > 0) await this.db.prisma.$executeRaw`UPDATE challenge SET target_seen_at = now() WHERE target_id = ANY(${targets}::uuid[])`;
  }

  private async sweep(): Promise<void> {
    const gone = await this.db.sql.query<{ id: string; creator_id: string; target_id: string | null; lapsed: boolean }>(challengeSweepStatement, [this.settings.graceMs]);
    for (const row of gone) {
      this.challenges.tellGone({ id: row.id, creatorId: row.creator_id, targetId: row.target_id }, row.lapsed ? 'lapsed' : 'left');
    }
  }
}
