import WebSocket from 'ws';

/**
 * A bare engine.io/socket.io connection over `ws`, with no client library in
 * between, so a test can send frames a well-behaved client never would.
 */
export class RawSocket {
  readonly received: string[] = [];
  private waiters: Array<() => void> = [];
  closed = false;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? `<binary ${(data as Buffer).length}>` : data.toString();
      // Answer engine.io pings so the server does not drop us for silence.
      if (text === '2') ws.send('3');
      this.received.push(text);
      this.wake();
    });
    ws.on('close', () => {
      this.closed = true;
      this.wake();
    });
    ws.on('error', () => {});
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** The engine.io handshake only: the server's open packet has arrived; no socket.io namespace yet. */
  static async open(url: string): Promise<RawSocket> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`);
    const raw = new RawSocket(ws);
    await raw.until((frame) => frame.startsWith('0{'), 'the engine.io open packet');
    return raw;
  }

  /** Opens and joins the main namespace with a token, as `40{"token":T}` does. */
  static async connect(url: string, token: string): Promise<RawSocket> {
    const raw = await RawSocket.open(url);
    raw.send(`40${JSON.stringify({ token })}`);
    await raw.until((frame) => frame.startsWith('40{') || frame.startsWith('44'), 'the namespace answer');
    if (!raw.received.some((frame) => frame.startsWith('40{"sid"'))) throw new Error(`refused: ${raw.received.join(' ')}`);
    return raw;
  }

  send(frame: string | Buffer): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(frame);
  }

  /** Waits for a received frame that passes `test` (or for the close, when `test` is 'close'). */
  async until(test: ((frame: string) => boolean) | 'close', what: string, timeoutMs = 10_000): Promise<string | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (test === 'close') {
        if (this.closed) return undefined;
      } else {
        const found = this.received.find(test);
        if (found !== undefined) return found;
        if (this.closed) throw new Error(`closed while waiting for ${what}: ${this.received.join(' ')}`);
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  /** Every acknowledgement received, by ack id, decoded. */
  acks(): Map<number, unknown> {
    const acks = new Map<number, unknown>();
    for (const frame of this.received) {
      const match = /^43(\d+)(\[.*)$/s.exec(frame);
      if (match) acks.set(Number(match[1]), (JSON.parse(match[2]!) as unknown[])[0]);
    }
    return acks;
  }

  async ack(id: number, timeoutMs = 10_000): Promise<unknown> {
    await this.until((frame) => frame.startsWith(`43${id}[`), `the acknowledgement ${id}`, timeoutMs);
    return this.acks().get(id);
  }

  close(): void {
    this.ws.terminate();
  }
}
