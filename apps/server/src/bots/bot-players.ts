// The computer takes a seat like a person: it is a player row, one per
// level, made on first use. It never has a session or a password, so nobody
// can sign in as the computer.

import type { PublicPlayer } from '@oanquan/protocol';
import type { Database } from '../db/database.js';

export type BotPlayer = PublicPlayer & { botLevel: number };

/** The stored name; the web shows its own words for it ("Máy (cấp 5)") from `botLevel`. */
export function botName(level: number): string {
  return `Computer (level ${level})`;
}

/** The computer of each level, by its row; a process asks the database once per level. */
export class BotPlayers {
  private readonly known = new Map<number, Promise<BotPlayer>>();

  constructor(private readonly db: Database) {}

  of(level: number): Promise<BotPlayer> {
    let player = this.known.get(level);
    if (!player) {
      player = this.db.prisma.player
        .upsert({
          where: { botLevel: level },
          create: { name: botName(level), botLevel: level },
          update: {},
          select: { id: true, name: true, botLevel: true },
        })
        .then((row) => ({ id: row.id, name: row.name, botLevel: level }));
      this.known.set(level, player);
      // A failed read is not remembered: the next game asks again.
      player.catch(() => this.known.delete(level));
    }
    return player;
  }
}
