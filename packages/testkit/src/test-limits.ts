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
};
