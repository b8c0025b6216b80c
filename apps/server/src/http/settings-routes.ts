import type { FastifyInstance } from 'fastify';
import { playerSettingsChange, type PlayerSettings } from '@oanquan/protocol';
import type { PlayerService } from '../players/player-service.js';
import type { PlayerSettingsStore } from '../players/player-settings.js';
import { requireIdentity } from './session-routes.js';
import { parseInput } from './validate.js';

/** GET and PATCH /api/settings: the caller's own settings (who may challenge them). */
export async function settingsRoutes(app: FastifyInstance, { players, settings }: { players: PlayerService; settings: PlayerSettingsStore }) {
  app.get('/settings', async (request): Promise<PlayerSettings> => settings.read(await requireIdentity(players, request)));

  app.patch('/settings', async (request): Promise<PlayerSettings> => {
    const change = parseInput(playerSettingsChange, request.body);
    return settings.change(await requireIdentity(players, request), change);
  });
}
