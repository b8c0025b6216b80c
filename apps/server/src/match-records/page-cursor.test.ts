import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';

const id = '4b0e5a0e-9c1d-4f7e-8a3b-2c6d7e8f9a0b';
const raw = (text: string) => Buffer.from(text).toString('base64url');

describe('page cursors', () => {
  it('decode to what was encoded, the epoch and the last millisecond of year 9999 included', () => {
    for (const at of [new Date('2026-11-30T21:04:05.678Z'), new Date(0), new Date('9999-12-31T23:59:59.999Z')]) {
      expect(decodeCursor(encodeCursor({ at, id }))).toEqual({ at, id });
    }
  });

  it.each([
    ['year 0 with the nil uuid', raw('0000-01-01T00:00:00.000Z|00000000-0000-0000-0000-000000000000')],
    ['36 dashes for an id', raw(`2026-01-01T00:00:00.000Z|${'-'.repeat(36)}`)],
    ['36 hex digits without the uuid shape', raw(`2026-01-01T00:00:00.000Z|${'a'.repeat(36)}`)],
    ['an expanded year', raw(`+010000-01-01T00:00:00.000Z|${id}`)],
    ['a negative year', raw(`-000001-01-01T00:00:00.000Z|${id}`)],
    ['before the epoch', raw(`1969-12-31T23:59:59.999Z|${id}`)],
    ['February 30th', raw(`2026-02-30T00:00:00.000Z|${id}`)],
    ['a date without milliseconds', raw(`2026-01-01T00:00:00Z|${id}`)],
    ['a third part', raw(`2026-01-01T00:00:00.000Z|${id}|${id}`)],
    ['no id', raw('2026-01-01T00:00:00.000Z')],
    ['nothing', ''],
  ])('refuse %s as a bad request', (_what, text) => {
    expect(() => decodeCursor(text)).toThrow(ServiceError);
    expect(() => decodeCursor(text)).toThrow('Bad page cursor');
  });
});
