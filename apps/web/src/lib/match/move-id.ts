/**
 * A fresh id for a move (the server's idempotency key). getRandomValues
 * works on plain-http pages too, unlike randomUUID.
 */
export function newMoveId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
