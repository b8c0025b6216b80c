import { describe, expect, it } from 'vitest';
import type { EventEmitter } from 'node:events';
import { deeperThan, refusalOf, socketParser } from './socket-parser.js';

const { Decoder } = socketParser({ maxEventBytes: 100, maxEventDepth: 3 });

function decode(frame: unknown): { type: number; nsp: string; id?: number; data?: unknown } {
  const decoder = new Decoder() as EventEmitter & { add(chunk: unknown): void };
  let packet: { type: number; nsp: string; id?: number; data?: unknown } | undefined;
  decoder.on('decoded', (decoded: typeof packet) => (packet = decoded));
  decoder.add(frame);
  if (!packet) throw new Error('nothing decoded');
  return packet;
}

describe('the socket parser', () => {
  it('measures nesting without parsing, ignoring brackets inside strings', () => {
    expect(deeperThan('["a",{"b":[1]}]', 3)).toBe(false);
    expect(deeperThan('["a",{"b":[[1]]}]', 3)).toBe(true);
    expect(deeperThan('["[[[[", "\\"[[[["]', 1)).toBe(false);
    expect(deeperThan('['.repeat(5000) + ']'.repeat(5000), 3)).toBe(true);
  });

  it('decodes what our clients send: connect with auth, events with an ack id, disconnect', () => {
    expect(decode('0{"token":"t"}')).toEqual({ type: 0, nsp: '/', data: { token: 't' } });
    expect(decode('0')).toEqual({ type: 0, nsp: '/' });
    expect(decode('212["sync",{"version":1}]')).toEqual({ type: 2, nsp: '/', id: 12, data: ['sync', { version: 1 }] });
    expect(decode('2["sync"]')).toEqual({ type: 2, nsp: '/', id: undefined, data: ['sync'] });
    expect(decode('1')).toEqual({ type: 1, nsp: '/' });
  });

  it('refuses an event over the size or depth limit without parsing it, keeping its ack id', () => {
    const large = decode(`27["move","${'x'.repeat(100)}"]`);
    expect(large).toMatchObject({ type: 2, id: 7, data: [] });
    expect(refusalOf(large.data as unknown[])).toMatchObject({ ok: false, code: 'PAYLOAD_TOO_LARGE' });
    const deep = decode('28["move",[[[1]]]]');
    expect(deep).toMatchObject({ type: 2, id: 8, data: [] });
    expect(refusalOf(deep.data as unknown[])).toMatchObject({ ok: false, code: 'BAD_REQUEST', message: expect.stringMatching(/deeper than 3/) });
    expect(refusalOf(decode('29["move",[[1]]]').data as unknown[])).toBeUndefined();
  });

  it.each([
    ['binary data', Buffer.from('2["move"]')],
    ['a binary event', '51-["move",{"_placeholder":true,"num":0}]'],
    ['an acknowledgement from the client', '31[{}]'],
    ['another namespace', '2/admin,["move"]'],
    ['a connect to another namespace', '0/admin,{}'],
    ['a connect with an array', '0[1]'],
    ['a deep connect payload', '0{"a":{"b":{"c":{"d":1}}}}'],
    ['invalid JSON', '42garbage'],
    ['an event that is not an array', '2{"a":1}'],
    ['an event without a name', '2[]'],
    ['an event named by an object', '2[{"toString":1}]'],
    ['an empty frame', ''],
    ['an unknown packet type', '9["move"]'],
    ['an over-long ack id', `2${'9'.repeat(20)}["move"]`],
  ])('throws on %s, so Socket.IO closes that connection', (_name, frame) => {
    expect(() => decode(frame)).toThrow();
  });
});
