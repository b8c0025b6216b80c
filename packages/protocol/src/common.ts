import { z } from 'zod';
import { limits } from './limits.js';
import { checkName } from './names.js';

export const seat = z.union([z.literal(0), z.literal(1)]);
export type Seat = z.infer<typeof seat>;

export const uuid = z.uuid();

/** A display name: composed (NFC) as it is stored and shown, and never blank-looking. */
export const playerName = z
  .string()
  .trim()
  .normalize('NFC')
  .min(limits.nameLength.min)
  .max(limits.nameLength.max)
  .superRefine(checkName);

/** A computer player's level (1–8); people have none. */
export const botLevel = z.number().int().min(1).max(8);

/** `botLevel` is set (1–8) on the computer's seat, null or absent for a person. */
export const publicPlayer = z.object({ id: uuid, name: z.string(), botLevel: botLevel.nullable().optional() });
export type PublicPlayer = z.infer<typeof publicPlayer>;
