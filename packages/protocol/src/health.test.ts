import { describe, expect, it } from 'vitest';
import { healthResponse } from './health.js';

describe('healthResponse', () => {
  it('accepts what the server answers and rejects anything else', () => {
    expect(healthResponse.parse({ status: 'ok', database: 'pglite' })).toEqual({ status: 'ok', database: 'pglite' });
    expect(healthResponse.safeParse({ status: 'ok', database: 'sqlite' }).success).toBe(false);
    expect(healthResponse.safeParse({ status: 'down', database: 'postgresql' }).success).toBe(false);
  });
});
