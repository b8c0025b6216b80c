import { play } from '@oanquan/rules';
import type { MatchEventEnvelope } from '@oanquan/protocol';
import { asJson } from '../rooms/room-service.js';
import type { LiveGame } from './game-cache.js';
import type { MatchRow } from '../match-records/match-store.js';

/**
 * A live game held here, advanced by a move another process committed, from
 * its `moved` event alone: the rules state plays the move, and the row takes
 * the position that follows, and the version and the clocks the event
 * carries. The clocks on the wire are exact for the row: a move starts the next clock at
 * `startsAt` (its commit plus the sowing allowance; `asOf` when there is
 * none) = `turn_started_at`, with both remaining times as stored, so the
 * deadline is that start plus the running seat's time.
 *
 * Undefined whenever the event does not follow from what is held (not the
 * next version, not a move, an ending, a move the rules refuse): the next
 * move here then reads the match again, as it would without this. Two
 * players on two processes otherwise cost each move that read.
 */
export function followed(live: LiveGame, { version, event }: MatchEventEnvelope): LiveGame | undefined {
  if (event.type !== 'moved' || version !== live.match.version + 1 || live.match.status !== 'playing') return undefined;
  const result = play(live.state, { square: event.square, dir: event.dir });
  if (!result.ok || result.state.position.result) return undefined;
  let clocks = {};
  if (live.match.clock0Ms !== null) {
    const wire = event.clocks;
    if (!wire || wire.running === null) return undefined;
    const start = new Date(wire.startsAt ?? wire.asOf);
    clocks = { clock0Ms: wire.remainingMs[0], clock1Ms: wire.remainingMs[1], turnStartedAt: start, clockDeadline: new Date(start.getTime() + wire.remainingMs[wire.running]) };
  }
  return { match: { ...live.match, version, position: asJson(result.state.position) as MatchRow['position'], ...clocks }, state: result.state };
}
