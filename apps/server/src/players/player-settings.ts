import { ErrorCode, type PlayerSettings, type PlayerSettingsChange } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { Identity } from './player-service.js';

/** What a guest has, and an account until it chooses: challenges from everyone, within the caps on what waits for one person. */
export const defaultSettings: PlayerSettings = { challengesFrom: 'everyone' };

/** A player's own settings, kept on their row. Only an account changes them: a guest's row may be cleaned up, and a guest has no settings page. */
export class PlayerSettingsStore {
  constructor(private readonly db: Database) {}

  async read(identity: Identity): Promise<PlayerSettings> {
    if (identity.username === null) return defaultSettings;
    const row = await this.db.prisma.player.findUnique({ where: { id: identity.player.id }, select: { challengesFrom: true } });
    return row ?? defaultSettings;
  }

  async change(identity: Identity, change: PlayerSettingsChange): Promise<PlayerSettings> {
    if (identity.username === null) throw new ServiceError(ErrorCode.AccountRequired, 'Settings are kept for accounts: keep your account first', 403);
    return this.db.prisma.player.update({ where: { id: identity.player.id }, data: change, select: { challengesFrom: true } });
  }
}
