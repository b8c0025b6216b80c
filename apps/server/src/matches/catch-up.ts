import type { FastifyBaseLogger } from 'fastify';
import type { MatchEventEnvelope } from '@oanquan/protocol';
import { Prisma } from '../generated/prisma/client.js';
import type { Database } from '../db/database.js';
import { roomChannel, type GameServer } from '../socket/game-server.js';

/** Rooms looked up per query. */
const batch = 500;

/**
 * After the link between processes was down (a Redis restart), the events
 * committed meanwhile on one process never reached the sockets of the
 * others. Each process, once reconnected, re-announces the latest event of
 * the current match of every room it has sockets in, to the whole room on
 * every process: a client that already has that version drops it, one that
 * is behind sees a gap and asks for what it missed (the protocol's resync by
 * version). A process that reconnects later than another still covers what
 * it committed before it did.
 */
export class CatchUp {
  constructor(
    private readonly io: GameServer,
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  async announceLatest(): Promise<number> {
    const codes = [...this.io.of('/').adapter.rooms.keys()].filter((room) => room.startsWith('room:')).map((room) => room.slice('room:'.length));
    let announced = 0;
    for (let i = 0; i < codes.length; i += batch) {
      const rows = await this.db.prisma.$queryRaw<Array<{ code: string; payload: MatchEventEnvelope }>>`
        SELECT r.code, e.payload
        FROM room r
        JOIN LATERAL (SELECT id FROM match WHERE room_id = r.id ORDER BY number DESC LIMIT 1) m ON true
        JOIN LATERAL (SELECT payload FROM match_event WHERE match_id = m.id ORDER BY version DESC LIMIT 1) e ON true
        WHERE r.code IN (${Prisma.join(codes.slice(i, i + batch))})`;
      for (const row of rows) this.io.to(roomChannel(row.code)).emit('match:event', row.payload);
      announced += rows.length;
    }
    return announced;
  }

  /** Never throws: a failure is logged, and clients still resync on their next event or reconnection. */
  run(): void {
    this.announceLatest().then(
      (rooms) => this.log.info({ rooms }, 'latest events re-announced after the link between processes came back'),
      (error: unknown) => this.log.warn({ err: error }, 're-announcing the latest events failed'),
    );
  }
}
