import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from '@oanquan/testkit';
import { isDatabaseUnreachable } from './connection-errors.js';

describe('isDatabaseUnreachable', () => {
  it('recognises a real refused connection from node-postgres', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: await freePort(), user: 'postgres', connectionTimeoutMillis: 2000 });
    const error = await client.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeDefined();
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it('recognises the shapes of each layer, however deeply wrapped', () => {
    const shapes: unknown[] = [
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      new Error('Connection terminated unexpectedly'),
      Object.assign(new Error('x'), { code: 'P1017' }),
      Object.assign(new Error('x'), { meta: { driverAdapterError: { cause: { kind: 'ConnectionClosed' } } } }),
      new Error('outer', { cause: new Error('inner', { cause: Object.assign(new Error('y'), { code: 'ECONNRESET' }) }) }),
      new AggregateError([Object.assign(new Error('z'), { code: 'ECONNREFUSED' })], ''),
      // Every pool reopening at once after a restart, past the server's max_connections: it passes too.
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
      new Error('Too many database connections opened: sorry, too many clients already'),
      Object.assign(new Error('x'), { meta: { driverAdapterError: { cause: { kind: 'TooManyConnections' } } } }),
    ];
    for (const shape of shapes) expect(isDatabaseUnreachable(shape)).toBe(true);
  });

  it('leaves request and programming errors alone', () => {
    const others: unknown[] = [
      new TypeError('cannot read properties of undefined'),
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error('x'), { code: 'P2002' }),
      Object.assign(new Error('x'), { meta: { driverAdapterError: { cause: { kind: 'UniqueConstraintViolation' } } } }),
      'ECONNREFUSED',
      null,
    ];
    for (const other of others) expect(isDatabaseUnreachable(other)).toBe(false);
  });
});
