import { z } from 'zod';
import { rulesChoice, ruleOptions } from './rules-options.js';

/** Initial time and increment per move, in seconds. The UI offers the usual ones (3+2, 5+3, 10+5, …); the API takes any. */
export const timeControl = z
  .object({
    initialSeconds: z.number().int().min(1).max(3 * 3600),
    incrementSeconds: z.number().int().min(0).max(180),
  })
  .strict();
export type TimeControl = z.infer<typeof timeControl>;

/** POST /api/rooms. */
export const createRoomRequest = z
  .object({
    rules: rulesChoice.default({ preset: 'classic' }),
    timeControl: timeControl.nullable().default(null),
    /** Friend rooms are casual: rated games are played only through the public queue, against opponents nobody chose. */
    rated: z.literal(false, { error: 'Friend rooms are casual; rated games are played through the public queue' }).default(false),
  })
  .strict();
export type CreateRoomRequest = z.input<typeof createRoomRequest>;

export const roomCode = z.string().regex(/^[A-Za-z0-9]{8,16}$/);

/** POST /api/rooms and GET /api/rooms/<code>. */
export const roomResponse = z.object({
  code: roomCode,
  url: z.string(),
  rules: ruleOptions,
  timeControl: timeControl.nullable(),
  rated: z.boolean(),
  matchId: z.uuid(),
  status: z.enum(['waiting', 'opener', 'playing', 'ended']),
  seats: z.tuple([z.object({ id: z.uuid(), name: z.string() }).nullable(), z.object({ id: z.uuid(), name: z.string() }).nullable()]),
});
export type RoomResponse = z.infer<typeof roomResponse>;
