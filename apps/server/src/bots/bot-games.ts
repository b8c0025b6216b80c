import { randomInt } from 'node:crypto';
import { ErrorCode, type CreateBotGameRequest, type RoomResponse } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { Counters } from '../limits/counters.js';
import { RunningCaps, type Cap } from '../limits/running-caps.js';
import { insertRoom, rulesFromChoice, type RoomService } from '../rooms/room-service.js';
import type { BotPlayers } from './bot-players.js';

export interface BotGameCaps {
  /** Games against the computer one player may have running at once (a rematch keeps its room's place). */
  readonly perPlayer: number;
  /** The same for everyone behind one address: a school's or a café's worth of people. */
  readonly perAddress: number;
}

/**
 * A room against the computer: both seats are taken at once (the computer's
 * drawn at random), so the match starts at the opener, which is played for
 * real. Never rated: a rating means something only against people. Each
 * costs the server a search per move, so a player and an address may have
 * only so many running at once.
 */
export class BotGames {
  private readonly running: RunningCaps;

  constructor(
    private readonly db: Database,
    private readonly rooms: RoomService,
    private readonly bots: BotPlayers,
    private readonly caps: BotGameCaps,
    private readonly started: (matchId: string, address: string) => void,
    places: Counters,
  ) {
    this.running = new RunningCaps(places, 'bot-games', async (roomIds) => {
      const live = await db.prisma.match.findMany({ where: { roomId: { in: roomIds }, status: { not: 'ended' } }, select: { roomId: true } });
      return new Set(live.map((match) => match.roomId));
    });
  }

  async create(playerId: string, address: string, request: Required<CreateBotGameRequest>): Promise<RoomResponse> {
    const caps: Cap[] = [
      { key: `player:${playerId}`, limit: this.caps.perPlayer, refusal: () => tooMany(`At most ${this.caps.perPlayer} games against the computer at once; finish one first`) },
      { key: `address:${address}`, limit: this.caps.perAddress, refusal: () => tooMany('Too many games against the computer are running from your network; try again when one ends') },
    ];
    const code = await this.running.admit(caps, async () => {
      const bot = await this.bots.of(request.level);
      const seats: [string, string] = randomInt(2) === 0 ? [bot.id, playerId] : [playerId, bot.id];
      const room = await insertRoom(this.db.prisma, {
        creatorId: playerId,
        rules: rulesFromChoice(request.rules),
        timeControl: request.timeControl,
        rated: false,
        seats,
        computer: bot.id,
      });
      this.started(room.matchId, address);
      return { id: room.id, result: room.code };
    });
    return this.rooms.describe(code);
  }
}

function tooMany(message: string): ServiceError {
  return new ServiceError(ErrorCode.TooManyBotGames, message, 429);
}
