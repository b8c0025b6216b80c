import { formatMove, legalMoves, newGame, play, PRESETS, sowingAllowanceMs, type Player, type PlyEvent, type Position, type State } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import type { Clocks, MatchEventEnvelope, PlayedMove } from './match.js';
import { wireEnvelope } from './match.js';
import { followMove, packEnvelope, stateOfSnapshot, unpackEnvelope, type WireEnvelope } from './moved.js';

/** A small seeded generator, so a failure names a game that can be played again. */
function generator(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

/** What the server sent for a move before events were compact: the move as listed, the ply's events and the whole position. */
interface FullMoved {
  type: 'moved';
  move: PlayedMove;
  events: PlyEvent[];
  position: Position;
  clocks: Clocks | null;
}

/** The server's former derivation (match-service's decideMove and match-store's playedMoves), kept as the reference. */
function referenceMoved(first: Player, before: State, move: { square: number; dir: 1 | -1 }, clocks: Clocks | null): { event: FullMoved; after: State } {
  const played = play(before, move);
  if (!played.ok) throw new Error(played.code);
  const ply = played.state.position.ply;
  const seat = ((first + ply - 1) % 2) as Player;
  const remainingMs = clocks ? clocks.remainingMs[seat] : null;
  const playedMove = { ply, seat, square: move.square, dir: move.dir, notation: formatMove(move, seat), remainingMs };
  return { event: { type: 'moved', move: playedMove, events: [...played.events], position: played.state.position, clocks }, after: played.state };
}

/** Socket.IO's text frame of `match:event`, as many bytes as cross the WebSocket (Engine.IO's '4' and Socket.IO's '2' first). */
function frameBytes(payload: unknown): number {
  return Buffer.byteLength(`42${JSON.stringify(['match:event', payload])}`);
}

const matchId = '8d1e7c2a-5b4f-4e3d-9a1b-2c3d4e5f6a7b';
const presets = Object.values(PRESETS);

describe('compact moves', () => {
  it('a client derives from a compact move what the server sent before, over thousands of random games, in under 150 bytes', () => {
    const random = generator(26);
    let moves = 0;
    let fullBytes = 0;
    let compactBytes = 0;
    let largest = 0;
    for (let game = 0; game < 2000; game++) {
      const rules = presets[game % presets.length]!;
      const first = (game % 2) as Player;
      const timed = game % 3 !== 0;
      let server = newGame({ rules, first });
      let client = newGame({ rules, first });
      const remaining: [number, number] = [180_000 + Math.floor(random() * 900_000), 180_000 + Math.floor(random() * 900_000)];
      let at = Date.UTC(2026, 11, 2, 6, 0, 0) + Math.floor(random() * 3_600_000);
      let version = 6 + Math.floor(random() * 4);
      const history: PlayedMove[] = [];
      while (server.position.status === 'playing') {
        const legal = legalMoves(server);
        const move = legal[Math.floor(random() * legal.length)]!;
        const mover = server.position.toMove;
        at += 200 + Math.floor(random() * 20_000);
        version += 1 + (random() < 0.05 ? 1 : 0);
        const peek = play(server, move);
        if (!peek.ok) throw new Error(peek.code);
        let clocks: Clocks | null = null;
        if (timed) {
          remaining[mover] = Math.max(1, remaining[mover] - Math.floor(random() * 15_000)) + 2000;
          const ended = peek.state.position.status === 'ended';
          // A move decided in a transaction is stamped a little after it was decided.
          const asOf = at - (random() < 0.1 ? Math.floor(random() * 40) : 0);
          clocks = { remainingMs: [remaining[0], remaining[1]], running: ended ? null : peek.state.position.toMove, asOf: new Date(asOf).toISOString() };
          if (!ended) clocks = { ...clocks, startsAt: new Date(asOf + sowingAllowanceMs(peek.events) + Math.floor(random() * 30)).toISOString() };
        }
        const reference = referenceMoved(first, server, move, clocks);
        server = reference.after;
        const iso = new Date(at).toISOString();
        const compact: MatchEventEnvelope = { matchId, version, at: iso, event: { type: 'moved', square: move.square, dir: move.dir, clocks } };
        const wire = packEnvelope(compact);
        const sent = JSON.parse(JSON.stringify(wire)) as WireEnvelope;
        if (moves % 20 === 0) expect(wireEnvelope.safeParse(sent).success).toBe(true);
        const received = unpackEnvelope(sent);
        expect(received).toEqual(compact);
        if (received.event.type !== 'moved') throw new Error('not a move');
        const followed = followMove(client, received.event);
        if (!followed) throw new Error(`game ${game}: the client could not follow ply ${server.position.ply}`);
        client = followed.state;
        expect({ type: 'moved', move: followed.move, events: followed.events, position: client.position, clocks: received.event.clocks }).toEqual(reference.event);
        history.push(followed.move);

        moves++;
        fullBytes += frameBytes({ matchId, version, at: iso, event: reference.event });
        const bytes = frameBytes(sent);
        compactBytes += bytes;
        largest = Math.max(largest, bytes);
      }
      // A snapshot of the ended game stands for the same state: its moves replayed lead to its position.
      expect(stateOfSnapshot({ rules, first, moves: history, position: server.position }).position).toEqual(server.position);
    }
    const average = compactBytes / moves;
    console.log(
      `${moves} moves: a moved frame averages ${(fullBytes / moves).toFixed(0)} bytes with the ply's events and the position, ${average.toFixed(0)} compact (largest ${largest})`,
    );
    expect(average).toBeLessThanOrEqual(150);
  }, 120_000);

  it('leaves every other event as it is', () => {
    const envelope: MatchEventEnvelope = { matchId, version: 3, at: '2026-12-02T06:00:00.000Z', event: { type: 'rematch-offered', seat: 1 } };
    expect(packEnvelope(envelope)).toBe(envelope);
    expect(unpackEnvelope(envelope)).toBe(envelope);
  });

  it('takes a snapshot whose moves do not lead to its position at its position', () => {
    const start = newGame({ first: 0 });
    const played = play(start, { square: 2, dir: 1 });
    if (!played.ok) throw new Error(played.code);
    const state = stateOfSnapshot({ rules: start.rules, first: 0, moves: [], position: played.state.position });
    expect(state.position).toEqual(played.state.position);
  });
});
