import { connect as tcpConnect } from 'node:net';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { newGuest, newRoom, startApp } from '../testing/live.js';

const REQUEST_TIMEOUT_MS = 1500;
const HEADERS_TIMEOUT_MS = 1000;

/**
 * Writes `head`, then `tail` one byte at a time with a pause between bytes,
 * as a slow-loris client does, and reports what the server answered and
 * whether it hung up before the client had finished.
 */
function trickle(port: number, head: string, tail: string, pauseMs: number): Promise<{ answer: string; cutOff: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answer, cutOff: sent < tail.length });
    });
    socket.on('connect', () => {
      socket.write(head);
      const next = () => {
        if (sent === tail.length) return;
        if (socket.destroyed) return;
        socket.write(tail[sent++]!);
        timer = setTimeout(next, pauseMs);
      };
      next();
    });
    socket.setTimeout(60_000, () => reject(new Error('the server never hung up')));
  });
}

describe('request and header timeouts', () => {
  let url: string;
  let port: number;
  let app: App;
  beforeAll(async () => {
    ({ url, app } = await startApp('pglite', {}, { HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) }));
    port = Number(new URL(url).port);
  });
  afterAll(() => app.close());

  it('cuts off a body sent a byte at a time with 408', async () => {
    const body = JSON.stringify({ rules: { preset: 'classic' }, pad: 'x'.repeat(100) });
    const head = `POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { answer, cutOff } = await trickle(port, head, body, 250);
    expect(cutOff).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts off headers sent a byte at a time with 408', async () => {
    const headers = `Host: 127.0.0.1\r\n${'X-Slow: '.padEnd(200, 'z')}\r\n\r\n`;
    const { answer, cutOff } = await trickle(port, 'GET /api/health HTTP/1.1\r\n', headers, 100);
    expect(cutOff).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it.each(['websocket', 'polling'] as const)('keeps a Socket.IO client on %s connected and answered well past the request timeout', async (transport) => {
    const { token } = await newGuest(url);
    const room = await newRoom(url, token);
    const socket = io(url, { auth: { token }, transports: [transport], reconnection: false, forceNew: true });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      const disconnects: string[] = [];
      socket.on('disconnect', (reason) => disconnects.push(reason));
      await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS * 3));
      const ack = (await socket.timeout(10_000).emitWithAck('room:join', { code: room.code })) as { ok: boolean; seat: number };
      expect(ack).toMatchObject({ ok: true, seat: 0 });
      expect(disconnects).toEqual([]);
      expect(socket.connected).toBe(true);
    } finally {
      socket.close();
    }
  });
});
