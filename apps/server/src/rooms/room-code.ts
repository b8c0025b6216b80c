import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/**
 * Ten characters of an alphabet without look-alikes (0/O, 1/l/I): about 58
 * bits, short enough to read aloud, too many to guess.
 */
export function newRoomCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}
