import { z } from 'zod';
import { limits } from './limits.js';
import { checkDisplayName } from './names.js';

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
  .superRefine(checkDisplayName);

/**
 * A match version as a client sends it back: the database keeps versions in
 * a 32-bit integer, so a larger one is refused at the edge instead of
 * reaching a query as a value out of range.
 */
export const matchVersion = z.number().int().min(0).max(2 ** 31 - 1);

/** A computer player's level (1–8); people have none. */
export const botLevel = z.number().int().min(1).max(8);

/** `botLevel` is set (1–8) on the computer's seat, null or absent for a person. */
export const publicPlayer = z.object({ id: uuid, name: z.string(), botLevel: botLevel.nullable().optional() });
export type PublicPlayer = z.infer<typeof publicPlayer>;
