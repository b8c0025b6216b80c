import { newGame, PRESETS, validateRules, type RuleOptions } from '@oanquan/rules';
import { ErrorCode, type CreateRoomRequest, type RoomResponse, type TimeControl } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';
import { newRoomCode } from './room-code.js';

export function rulesFromChoice(choice: { preset: keyof typeof PRESETS } | { options: Partial<RuleOptions> }): RuleOptions {
  if ('preset' in choice) return PRESETS[choice.preset];
  const checked = validateRules(choice.options);
  if (!checked.ok) throw new ServiceError(ErrorCode.BadRequest, checked.message);
  return checked.rules;
}

export function timeControlOf(room: { initialMs: number | null; incrementMs: number | null }): TimeControl | null {
  return room.initialMs === null
    ? null
    : { initialSeconds: room.initialMs / 1000, incrementSeconds: (room.incrementMs ?? 0) / 1000 };
}

export class RoomService {
  constructor(private readonly db: Database) {}

  async create(creatorId: string, request: Required<CreateRoomRequest>): Promise<RoomResponse> {
    const { code } = await insertRoom(this.db.prisma, {
      creatorId,
      rules: rulesFromChoice(request.rules),
      timeControl: request.timeControl,
      rated: request.rated,
    });
    return this.describe(code);
  }

  async describe(code: string): Promise<RoomResponse> {
    const room = await this.db.prisma.room.findUnique({
      where: { code },
      include: {
        matches: {
          orderBy: { number: 'desc' },
          take: 1,
          include: { player0: { select: { id: true, name: true } }, player1: { select: { id: true, name: true } } },
        },
      },
    });
    const match = room?.matches[0];
    if (!room || !match) throw new ServiceError(ErrorCode.RoomNotFound, `No room ${code}`, 404);
    return {
      code: room.code,
      url: `/r/${room.code}`,
      rules: room.rules as unknown as RuleOptions,
      timeControl: timeControlOf(room),
      rated: room.rated,
      matchId: match.id,
      status: match.status,
      seats: [match.player0, match.player1],
    };
  }
}

/**
 * A room and its first match. With both seats given (the queue, a challenge
 * or a game against the computer pairs two players), the match starts at the
 * opener, and the people seated are absent from that moment: nobody is in a
 * room just made, and a player who never opens it is gone from the pairing on, so
 * a match neither opens ends within the abandonment grace (deadline-sweeper.ts)
 * and the one who came may claim against the one who never did. Joining the
 * room clears a player's absence (presence-service.ts).
 */
export async function insertRoom(
  client: Pick<Prisma.TransactionClient, 'room'>,
  options: {
    creatorId: string;
    rules: RuleOptions;
    timeControl: TimeControl | null;
    rated: boolean;
    seats?: [string, string];
    /** The computer's player, when it takes a seat: it never leaves it, so it is never absent. */
    computer?: string;
  },
): Promise<{ id: string; code: string; matchId: string }> {
  const { rules, timeControl: tc, seats } = options;
  const createdAt = new Date();
  const room = await client.room.create({
    data: {
      code: newRoomCode(),
      rules: asJson(rules),
      initialMs: tc ? tc.initialSeconds * 1000 : null,
      incrementMs: tc ? tc.incrementSeconds * 1000 : null,
      rated: options.rated,
      createdById: options.creatorId,
      matches: {
        create: {
          number: 1,
          rules: asJson(rules),
          rated: options.rated,
          // Rated games are played in pairings (see rated-pairing.ts): this is the first game of one.
          pairGame: options.rated ? 1 : null,
          position: asJson(newGame({ rules }).position),
          ...(seats
            ? {
                player0Id: seats[0],
                player1Id: seats[1],
                status: 'opener' as const,
                absent0Since: seats[0] === options.computer ? null : createdAt,
                absent1Since: seats[1] === options.computer ? null : createdAt,
              }
            : {}),
          createdAt,
        },
      },
    },
    include: { matches: { select: { id: true } } },
  });
  return { id: room.id, code: room.code, matchId: room.matches[0]!.id };
}

/** Rules values are plain JSON data; Prisma's Json input type just cannot see that through readonly arrays. */
export function asJson(value: object): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}
