import { ERR_BAD_POSITION, ERR_ENGINE_TIMEOUT } from '@oanquan/engine';
import { EngineErrorCode } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';

// The engine knows nothing of the protocol package; the codes it rejects with are the protocol's, by value.
describe('engine error codes', () => {
  it('are the ones the protocol shares with clients', () => {
    expect(EngineErrorCode).toEqual({ BadPosition: ERR_BAD_POSITION, Timeout: ERR_ENGINE_TIMEOUT });
  });
});
