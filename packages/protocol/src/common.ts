import { z } from 'zod';
import { limits } from './limits.js';

export const seat = z.union([z.literal(0), z.literal(1)]);
export type Seat = z.infer<typeof seat>;

export const uuid = z.uuid();

export const playerName = z
  .string()
  .trim()
  .min(limits.nameLength.min)
  .max(limits.nameLength.max)
  .regex(/^[^\p{C}]+$/u, 'no control characters');

export const publicPlayer = z.object({ id: uuid, name: z.string() });
export type PublicPlayer = z.infer<typeof publicPlayer>;
