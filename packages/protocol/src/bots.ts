import { z } from 'zod';
import { botLevel } from './common.js';
import { timeControl } from './rooms.js';
import { rulesChoice } from './rules-options.js';

/**
 * POST /api/bot-games: a room against the computer. Its match starts at the
 * opener at once, the computer in `seat` (random when not given). Never rated.
 */
export const createBotGameRequest = z
  .object({
    level: botLevel,
    rules: rulesChoice.default({ preset: 'classic' }),
    timeControl: timeControl.nullable().default(null),
  })
  .strict();
export type CreateBotGameRequest = z.input<typeof createBotGameRequest>;
