import type { ChallengesFrom } from '@oanquan/protocol';
import type { Prisma } from '../generated/prisma/client.js';
import { isFollowing } from './follows.js';

/** Whether a player who takes challenges from `choice` takes one from `from` (an account or not). */
export async function mayChallenge(
  tx: Pick<Prisma.TransactionClient, 'follow'>,
  choice: ChallengesFrom,
  from: { id: string; account: boolean },
  targetId: string,
): Promise<boolean> {
  switch (choice) {
    case 'everyone':
      return true;
    case 'accounts':
      return from.account;
    case 'following':
      return isFollowing(tx, targetId, from.id);
    case 'nobody':
      return false;
  }
}
