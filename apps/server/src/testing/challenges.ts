import type { Challenge, ChallengeAccepted, ChallengeGone } from '@oanquan/protocol';
import { api, newAccount, newGuest, TestClient } from './live.js';

/** Everything about challenges one client is sent, in order. */
export interface Heard {
  added: Challenge[];
  removed: ChallengeGone[];
  received: Challenge[];
  gone: ChallengeGone[];
  accepted: ChallengeAccepted[];
}

export function listen(client: TestClient): Heard {
  const heard: Heard = { added: [], removed: [], received: [], gone: [], accepted: [] };
  client.socket.on('lobby:added', (challenge) => heard.added.push(challenge));
  client.socket.on('lobby:removed', (gone) => heard.removed.push(gone));
  client.socket.on('challenge:received', (challenge) => heard.received.push(challenge));
  client.socket.on('challenge:gone', (gone) => heard.gone.push(gone));
  client.socket.on('challenge:accepted', (accepted) => heard.accepted.push(accepted));
  return heard;
}

export async function until(test: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The acknowledgement's challenge, or the test fails with the refusal. */
export function made(answer: { ok: true; challenge: Challenge } | { ok: false; code: string }): Challenge {
  if (!answer.ok) throw new Error(`challenge refused: ${answer.code}`);
  return answer.challenge;
}

/**
 * Someone to challenge and be challenged, connected and listening: a guest
 * with a row (a room of their own: one can challenge a guest once they have
 * sat down somewhere), or an account; from `address` for a server that
 * trusts the loopback proxy. Their socket goes into `open`, to be closed.
 */
export async function challenger(url: string, open: TestClient[], kind: 'guest' | 'account' = 'guest', address?: string) {
  const who = kind === 'guest' ? await newGuest(url) : await newAccount(url);
  if (kind === 'guest') await api(url, '/api/rooms', { token: who.token, body: {} });
  const client = await TestClient.connect(url, who.token, { address });
  open.push(client);
  return { ...who, client, heard: listen(client) };
}
