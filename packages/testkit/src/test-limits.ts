/**
 * Tests make hundreds of guests and rooms from 127.0.0.1 within seconds,
 * which the production rate limits rightly refuse. Servers started for tests
 * get these instead; a test of the limits themselves sets its own.
 */
export const testRateLimits: Record<string, string> = {
  RATE_LIMIT_GUESTS_PER_HOUR: '1000000',
  RATE_LIMIT_ROOMS_PER_MINUTE: '1000000',
  RATE_LIMIT_RENAMES_PER_MINUTE: '1000000',
  RATE_LIMIT_READS_PER_MINUTE: '1000000',
  RATE_LIMIT_SIGNUPS_PER_HOUR: '1000000',
  RATE_LIMIT_LOGINS_PER_MINUTE: '1000000',
  RATE_LIMIT_LOGINS_FREE_FAILURES_PER_ADDRESS: '1000000',
  RATE_LIMIT_LOGINS_FREE_FAILURES_PER_USERNAME: '1000000',
  RATE_LIMIT_NEW_PLAYERS_PER_ADDRESS_PER_HOUR: '1000000',
  RATE_LIMIT_SEATS_PER_ADDRESS_PER_MINUTE: '1000000',
  RATE_LIMIT_SEATS_PER_MINUTE: '1000000',
  RATE_LIMIT_ROOMS_PER_ADDRESS_PER_MINUTE: '1000000',
  RATE_LIMIT_ANALYSES_PER_ADDRESS_PER_MINUTE: '1000000',
  // Everyone in a test shares 127.0.0.1: the caps of what one address has out are the people's, as above.
  CHALLENGES_PER_ADDRESS: '1000000',
  OPEN_CHALLENGES_PER_ADDRESS: '1000000',
  CHALLENGES_TO_PLAYER_PER_ADDRESS: '1000000',
};
