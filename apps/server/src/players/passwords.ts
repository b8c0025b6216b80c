import { hash, verify } from '@node-rs/argon2';

/**
 * Argon2id, the library's default algorithm, with its default cost (19 MiB,
 * 2 passes, 1 lane: OWASP's baseline), stored as a PHC string that carries its own parameters, so
 * stronger settings later still verify the old hashes.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Checked when the username is unknown, so a wrong username takes as long as a wrong password.
const decoy = hashPassword('decoy password that matches nothing');

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
