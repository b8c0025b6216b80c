import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { ErrorCode } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.js';
import { cutMidBody } from '../testing/cut-request.js';
import { waitFor } from '../testing/wait-for.js';
import { handleHttpError } from './error-handler.js';

describe('the REST error handler', () => {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ logger: { level: 'debug', stream } });
  beforeAll(async () => {
    app.setErrorHandler(handleHttpError);
    app.get('/refused', async () => {
      throw new ServiceError(ErrorCode.RoomNotFound, 'No such room', 404);
    });
    app.get('/busy', async () => {
      throw new ServiceError(ErrorCode.AnalysisBusy, 'Too many analyses are waiting', 503);
    });
    app.get('/bug', async () => {
      throw new TypeError('cannot read properties of undefined');
    });
    app.get('/database-gone', async () => {
      // The shape Prisma's PostgreSQL adapter gives a refused connection.
      throw Object.assign(new Error('Invalid `prisma.match.findFirst()` invocation'), { code: 'P1001', meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } } });
    });
    app.post('/echo', async (request) => request.body);
    await app.ready();
  });
  afterAll(() => app.close());

  const logged = (msg: string) => lines.filter((line) => line.msg === msg);

  it('answers a refusal with its code and logs it at info without a stack', async () => {
    lines.length = 0;
    const response = await app.inject({ method: 'GET', url: '/refused' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ ok: false, code: 'ROOM_NOT_FOUND', message: 'No such room' });
    expect(logged('request refused')).toEqual([expect.objectContaining({ level: 30, status: 404, code: 'ROOM_NOT_FOUND' })]);
    expect(JSON.stringify(lines)).not.toContain('stack');
  });

  it('logs a refusal answered 503 (a full queue) at info too, without a stack', async () => {
    lines.length = 0;
    const response = await app.inject({ method: 'GET', url: '/busy' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ ok: false, code: 'ANALYSIS_BUSY' });
    expect(logged('request refused')).toEqual([expect.objectContaining({ level: 30, status: 503, code: 'ANALYSIS_BUSY' })]);
    expect(logged('request failed')).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('stack');
  });

  it('turns a framework 4xx into an ErrorBody with a stable code, logged without a stack', async () => {
    lines.length = 0;
    const broken = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    const huge = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ a: 'x'.repeat(2_000_000) }) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ ok: false, code: 'PAYLOAD_TOO_LARGE' });
    expect(logged('request refused').map((line) => line.level)).toEqual([30, 30]);
    expect(JSON.stringify(lines)).not.toContain('stack');
  });

  it('hides a bug behind INTERNAL and logs it at error with its stack', async () => {
    lines.length = 0;
    const response = await app.inject({ method: 'GET', url: '/bug' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ ok: false, code: 'INTERNAL', message: 'Internal error' });
    const [failed] = logged('request failed');
    expect(failed).toMatchObject({ level: 50, err: { type: 'TypeError', message: 'cannot read properties of undefined' } });
    expect((failed!.err as { stack: string }).stack).toContain('error-handler.test.ts');
  });

  it('answers a lost database with the retryable UNAVAILABLE and 503, logged as a warning, not a bug', async () => {
    lines.length = 0;
    const response = await app.inject({ method: 'GET', url: '/database-gone' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ ok: false, code: 'UNAVAILABLE' });
    expect(logged('database unreachable')).toEqual([expect.objectContaining({ level: 40 })]);
    expect(logged('request failed')).toEqual([]);
  });

  it('logs a request its client cut mid-body at debug as aborted, though Node names it ECONNRESET, never as a lost database', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    lines.length = 0;
    const { port } = app.server.address() as AddressInfo;
    await cutMidBody(port, { method: 'POST', path: '/echo' }, 'destroy');
    await waitFor('the aborted request in the log', () => logged('request aborted by the client').length === 1, { everyMs: 20 });
    expect(logged('request aborted by the client')).toEqual([expect.objectContaining({ level: 20, reason: 'aborted' })]);
    expect(logged('database unreachable')).toEqual([]);
    expect(logged('request failed')).toEqual([]);
    expect(logged('request refused')).toEqual([]);
  });
});
