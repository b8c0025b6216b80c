import { randomInt } from 'node:crypto';
import type { CreateBotGameRequest, RoomResponse } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { insertRoom, rulesFromChoice, type RoomService } from '../rooms/room-service.js';
import type { BotPlayers } from './bot-players.js';

/**
 * A room against the computer: both seats are taken at once (the computer's
 * drawn at random), so the match starts at the opener, which is played for
 * real. Never rated: a rating means something only against people.
 */
export class BotGames {
  constructor(
    private readonly db: Database,
    private readonly rooms: RoomService,
    private readonly bots: BotPlayers,
    private readonly started: (matchId: string) => void,
  ) {}

  async create(playerId: string, request: Required<CreateBotGameRequest>): Promise<RoomResponse> {
    const bot = await this.bots.of(request.level);
    const seats: [string, string] = randomInt(2) === 0 ? [bot.id, playerId] : [playerId, bot.id];
    const { code, matchId } = await insertRoom(this.db.prisma, {
      creatorId: playerId,
      rules: rulesFromChoice(request.rules),
      timeControl: request.timeControl,
      rated: false,
      seats,
    });
    this.started(matchId);
    return this.rooms.describe(code);
  }
}
