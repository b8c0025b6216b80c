import { describe, expect, it } from 'vitest';
import { expectedWho } from './who-hint.js';

describe('expectedWho', () => {
  it('serves a browser without a session as a guest, else as the hint says, and nothing when the hint is missing or foreign', () => {
    expect(expectedWho(false, undefined)).toBe('guest');
    expect(expectedWho(false, 'account')).toBe('guest');
    expect(expectedWho(true, 'account')).toBe('account');
    expect(expectedWho(true, 'guest')).toBe('guest');
    expect(expectedWho(true, undefined)).toBeNull();
    expect(expectedWho(true, 'admin')).toBeNull();
  });
});
