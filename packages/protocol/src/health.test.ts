import { describe, expect, it } from 'vitest';
import { ErrorCode, isRetryable } from './error-codes.js';
import { healthResponse, liveResponse, notReadyResponse } from './health.js';

describe('healthResponse', () => {
  it('accepts what the server answers and rejects anything else', () => {
    expect(healthResponse.parse({ status: 'ok', database: 'pglite' })).toEqual({ status: 'ok', database: 'pglite' });
    expect(healthResponse.safeParse({ status: 'ok', database: 'sqlite' }).success).toBe(false);
    expect(healthResponse.safeParse({ status: 'down', database: 'postgresql' }).success).toBe(false);
  });

  it('tells not ready apart from ready, and liveness from both', () => {
    expect(notReadyResponse.parse({ status: 'not ready', database: 'postgresql', reason: 'database' }).reason).toBe('database');
    expect(notReadyResponse.safeParse({ status: 'ok', database: 'postgresql', reason: 'database' }).success).toBe(false);
    expect(liveResponse.safeParse({ status: 'ok' }).success).toBe(true);
    expect(liveResponse.safeParse({ status: 'not ready' }).success).toBe(false);
  });
});

describe('retryable codes', () => {
  it('are those about the server at that moment, never about the request', () => {
    expect(isRetryable(ErrorCode.Unavailable)).toBe(true);
    for (const code of [ErrorCode.Internal, ErrorCode.StaleVersion, ErrorCode.NotYourTurn, ErrorCode.RateLimited, ErrorCode.BadRequest]) {
      expect(isRetryable(code)).toBe(false);
    }
  });
});
