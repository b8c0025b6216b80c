import { io, type Socket } from 'socket.io-client';
import { reconnectionOptions } from '@oanquan/protocol/resend-pauses';
import type { Ack, ClientAcks, ClientEventName, ClientPayload, ClientToServerEvents, ServerToClientEvents } from '@oanquan/protocol';
import { ClientErrorCode, failure, isErrorBody, type Failure } from './client-error.js';
import { identity, type Identity } from './identity.svelte.js';

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'failed';
export type Answer<E extends ClientEventName> = ClientAcks[E] | Failure;

const DEFAULT_TIMEOUT_MS = 8000;
/** How soon to try again when the handshake could not carry a token. */
const RETRY_MS = 2000;

/**
 * The one Socket.IO connection of a tab. Every request gets an answer: the
 * server's acknowledgement, or a failure when the connection is down or the
 * server stays silent, so no caller waits forever.
 */
export class GameSocket {
  status = $state<ConnectionStatus>('connecting');
  /** Why the connection failed, when it did. */
  problem = $state.raw<Failure | null>(null);
  private readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  private readonly reconnectListeners = new Set<() => void>();
  private everConnected = false;
  /** Someone stopped waiting for the first connection (see whenConnected). */
  private gaveUp = false;
  /** The session could not be checked (network) before the last handshake. */
  private unchecked = false;

  constructor(private readonly who: Identity) {
    this.socket = io({
      autoConnect: false,
      // Back soon after a node is gone, and spread out so that its players do not all arrive at once.
      ...reconnectionOptions,
      // The session is the cookie, so nothing to send; whether it could be checked decides how a refusal is taken.
      auth: (send) => {
        void who.ensure().then((outcome) => {
          this.unchecked = typeof outcome !== 'string';
          send({});
        });
      },
    });
    this.socket.on('connect', () => {
      // A first connection someone already gave up waiting for counts as a reconnection.
      const again = this.everConnected || this.gaveUp;
      this.everConnected = true;
      this.gaveUp = false;
      this.status = 'connected';
      this.problem = null;
      if (again) for (const listener of this.reconnectListeners) listener();
    });
    this.socket.on('disconnect', (reason) => {
      // A disconnect the server asked for is not retried by Socket.IO itself.
      if (reason === 'io server disconnect') this.socket.connect();
      this.status = 'reconnecting';
    });
    this.socket.on('connect_error', (error: Error & { data?: unknown }) => {
      if (isErrorBody(error.data) && error.data.code === 'UNAUTHORIZED' && this.unchecked) {
        // The session could not be checked (the network failed first): try again shortly, as the same player.
        setTimeout(() => this.socket.connect(), RETRY_MS);
        return;
      }
      if (isErrorBody(error.data) && error.data.code === 'UNAUTHORIZED') {
        // The session expired or was signed out: become a guest, once per refusal.
        void who.renew().then((token) => {
          if (typeof token === 'string') this.socket.connect();
          else {
            this.problem = token;
            this.status = 'failed';
          }
        });
        return;
      }
      if (isErrorBody(error.data)) {
        // Refused at the handshake (too many connections): Socket.IO does not retry, and
        // retrying at once would be refused again, so the player gets the server's reason.
        this.problem = failure(error.data.code, error.data.message);
        this.status = 'failed';
        return;
      }
      this.problem = failure(ClientErrorCode.Offline, error.message);
      this.status = this.everConnected ? 'reconnecting' : this.socket.active ? 'connecting' : 'failed';
    });
    // The server reads the session cookie off the handshake's first request, which goes out on connect(),
    // before `auth` is asked. Opened before the session is known, it would carry no cookie on a first visit
    // (or an expired one), be refused, and the page would renew the session it had just made: the player
    // shown, gone, shown again, and a form opened in between lost.
    void who.ensure().then(() => this.socket.connect());
  }

  get connected(): boolean {
    return this.status === 'connected';
  }

  /** Resolves true once connected, or false if that takes longer than `timeoutMs`. */
  whenConnected(timeoutMs = DEFAULT_TIMEOUT_MS): Promise<boolean> {
    if (this.socket.connected) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (connected: boolean) => {
        clearTimeout(timer);
        this.socket.off('connect', onConnect);
        this.socket.off('connect_error', onError);
        resolve(connected);
      };
      const onConnect = () => done(true);
      // A refusal is final: no need to wait out the timeout.
      const onError = () => {
        if (this.status === 'failed') done(false);
      };
      const timer = setTimeout(() => {
        this.gaveUp = !this.socket.connected;
        done(this.socket.connected);
      }, timeoutMs);
      this.socket.on('connect', onConnect);
      this.socket.on('connect_error', onError);
    });
  }

  async request<E extends ClientEventName>(event: E, payload: ClientPayload<E>, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Answer<E>> {
    // A page's first requests may come before its first connection: wait for
    // that one. After a disconnection, fail at once instead: the board must
    // not look as if a move were on its way.
    if (!this.socket.connected && !(this.status === 'connecting' && (await this.whenConnected(timeoutMs)))) {
      return this.status === 'failed' && this.problem ? this.problem : failure(ClientErrorCode.Offline, 'Not connected to the server');
    }
    const timed = this.socket.timeout(timeoutMs) as unknown as {
      emitWithAck(event: E, payload: ClientPayload<E>): Promise<Ack<E>>;
    };
    try {
      const answer = await timed.emitWithAck(event, payload);
      if (typeof answer !== 'object' || answer === null) return failure(ClientErrorCode.Network, 'Unreadable answer');
      return answer as Answer<E>;
    } catch {
      return this.socket.connected
        ? failure(ClientErrorCode.Timeout, `No answer to ${event} within ${timeoutMs / 1000} s`)
        : failure(ClientErrorCode.Offline, 'The connection was lost before the server answered');
    }
  }

  /** Stops following a room, so the server no longer counts this tab as present there. */
  leaveRoom(code: string): void {
    if (this.socket.connected) void this.request('room:leave', { code });
  }

  /** Listens to a server event; returns the function that stops listening. */
  on<E extends keyof ServerToClientEvents>(event: E, listener: ServerToClientEvents[E]): () => void {
    (this.socket.on as (event: E, listener: ServerToClientEvents[E]) => void)(event, listener);
    return () => {
      (this.socket.off as (event: E, listener: ServerToClientEvents[E]) => void)(event, listener);
    };
  }

  /** Called after each reconnection (not the first connection): time to catch up. */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }
}

let shared: GameSocket | undefined;

/** The tab's connection, opened on first use (browser only). */
export function gameSocket(): GameSocket {
  shared ??= new GameSocket(identity());
  return shared;
}
