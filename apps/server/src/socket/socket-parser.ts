import { EventEmitter } from 'node:events';
import { Encoder, PacketType, type Packet } from 'socket.io-parser';
import { ErrorCode, type ErrorBody } from '@oanquan/protocol';

export interface ParserLimits {
  /** Largest event message, in bytes of the raw frame. */
  maxEventBytes: number;
  /** Deepest nesting of arrays and objects in a message (the event's own argument list counts as one). */
  maxEventDepth: number;
}

/** Events refused while decoding, found again by the argument list Socket.IO hands to the middleware. */
const refusals = new WeakMap<object, ErrorBody>();

/** Why the decoder refused this event, if it did; the socket middleware answers it. */
export function refusalOf(args: readonly unknown[]): ErrorBody | undefined {
  return refusals.get(args);
}

/**
 * The Socket.IO parser of the server (Server option `parser`): Socket.IO's own
 * encoder, and a decoder that accepts only what our clients send: connect and
 * disconnect on the main namespace, and text events whose first argument is
 * the event name. Binary attachments, acknowledgements from the client and
 * other namespaces are protocol violations: the decoder throws, and Socket.IO
 * closes that connection.
 *
 * An event over the size or depth limit is not parsed at all (so no later
 * code walks a hostile structure), but it still reaches the middleware with
 * its acknowledgement, which answers PAYLOAD_TOO_LARGE or BAD_REQUEST.
 */
export function socketParser(limits: ParserLimits): { Encoder: typeof Encoder; Decoder: new () => EventEmitter } {
  class Decoder extends EventEmitter {
    add(chunk: unknown): void {
      if (typeof chunk !== 'string') throw new Error('binary messages are not accepted');
      this.emit('decoded', decode(chunk, limits));
    }

    destroy(): void {
      this.removeAllListeners();
    }
  }
  return { Encoder, Decoder };
}

const maxIdDigits = 15;

function decode(frame: string, limits: ParserLimits): Packet {
  const type = frame.charCodeAt(0) - 48;
  let end = 1;
  while (end < frame.length && end <= maxIdDigits && isDigit(frame.charCodeAt(end))) end++;
  if (end > maxIdDigits) throw new Error('acknowledgement id too long');
  const id = end > 1 ? Number(frame.slice(1, end)) : undefined;
  const body = frame.slice(end);

  if (type === PacketType.CONNECT && id === undefined) {
    if (body === '') return { type, nsp: '/' };
    const auth = parseJson(body, limits.maxEventDepth);
    if (typeof auth !== 'object' || auth === null || Array.isArray(auth)) throw new Error('connect payload must be an object');
    return { type, nsp: '/', data: auth };
  }
  if (type === PacketType.DISCONNECT && id === undefined && body === '') return { type, nsp: '/' };
  if (type !== PacketType.EVENT) throw new Error('packet type not accepted');

  const size = Buffer.byteLength(frame);
  if (size > limits.maxEventBytes) {
    return refused(id, ErrorCode.PayloadTooLarge, `Message of ${size} bytes is over the limit of ${limits.maxEventBytes}`);
  }
  if (deeperThan(body, limits.maxEventDepth)) {
    return refused(id, ErrorCode.BadRequest, `Payload nested deeper than ${limits.maxEventDepth} levels`);
  }
  const args = parseJson(body, limits.maxEventDepth);
  if (!Array.isArray(args) || typeof args[0] !== 'string') throw new Error('an event is an array that starts with its name');
  return { type, nsp: '/', id, data: args };
}

function refused(id: number | undefined, code: ErrorBody['code'], message: string): Packet {
  const args: unknown[] = [];
  refusals.set(args, { ok: false, code, message });
  return { type: PacketType.EVENT, nsp: '/', id, data: args };
}

function parseJson(text: string, maxDepth: number): unknown {
  if (deeperThan(text, maxDepth)) throw new Error('payload nested too deep');
  return JSON.parse(text) as unknown;
}

/**
 * Whether JSON text nests arrays and objects deeper than `max`, in one pass
 * without parsing. Exact for valid JSON; invalid JSON fails to parse anyway.
 */
export function deeperThan(json: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
