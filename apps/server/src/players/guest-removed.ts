import { ErrorCode } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';

/** The refusal of a guest the cleanup removed (unused past the retention) while a socket of theirs stayed open. */
export function guestRemoved(): ServiceError {
  return new ServiceError(ErrorCode.Unauthorized, 'This guest was removed for lack of use; start a new session', 401);
}
