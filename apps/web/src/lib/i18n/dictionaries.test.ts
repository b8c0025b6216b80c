import { describe, expect, it } from 'vitest';
import { ErrorCode, type ErrorCode as ErrorCodeType } from '@oanquan/protocol';
import { PLAY_ERROR_CODES } from '@oanquan/rules';
import { ClientErrorCode } from '../net/client-error.js';
import { en } from './en.js';
import { placeholders } from './interpolate.js';
import { vi } from './vi.js';

describe('the dictionaries', () => {
  it('have exactly the same keys', () => {
    expect(Object.keys(vi).sort()).toEqual(Object.keys(en).sort());
  });

  it('use the same placeholders in both languages', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect({ key, names: placeholders(vi[key]) }).toEqual({ key, names: placeholders(en[key]) });
    }
  });

  it('have no empty text', () => {
    for (const text of [...Object.values(en), ...Object.values(vi)]) expect(text.trim()).not.toBe('');
  });

  it('explain every error code the server or the client can give', () => {
    const codes: string[] = [...Object.values(ErrorCode), ...PLAY_ERROR_CODES, ...Object.values(ClientErrorCode)] satisfies string[];
    for (const code of codes as ErrorCodeType[]) expect(en).toHaveProperty([`error.${code}`]);
  });
});
