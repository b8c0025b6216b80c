import { DEFAULT_RULES, newGame, type Player, type State } from '@oanquan/rules';
import type { PublicPlayer } from '@oanquan/protocol';
import { unplayedColumns } from '../match-records/match-row.js';
import type { MatchRow } from '../match-records/match-store.js';
import type { Decision } from '../matches/decision.js';
import { decideHand } from '../matches/opener.js';
import { decideSeat } from '../matches/seat-decision.js';
import { asJson } from '../rooms/room-service.js';

/** Two players and a stranger, as the socket edge knows them. */
export const alice: PublicPlayer = { id: '00000000-0000-4000-8000-00000000000a', name: 'Alice' };
export const bob: PublicPlayer = { id: '00000000-0000-4000-8000-00000000000b', name: 'Bob' };
export const carol: PublicPlayer = { id: '00000000-0000-4000-8000-00000000000c', name: 'Carol' };

export const openerTimes = { openerTimeoutMs: 30_000, firstMoveTimeoutMs: 60_000 };

/** A match row as the database would hold it, in memory: a new match waiting for its players, in a room of `initialMs` per side. */
export function waitingMatch(initialMs: number | null = 300_000): MatchRow {
  return {
    id: '00000000-0000-4000-8000-0000000000aa',
    roomId: '00000000-0000-4000-8000-0000000000bb',
    number: 1,
    status: 'waiting',
    rules: asJson(DEFAULT_RULES) as MatchRow['rules'],
    rated: false,
    pairGame: null,
    ...unplayedColumns,
    player0Id: null,
    player1Id: null,
    position: asJson(newGame().position) as MatchRow['position'],
    createdAt: new Date(0),
    room: { code: 'ROOM01', initialMs, incrementMs: initialMs === null ? null : 0 },
    player0: null,
    player1: null,
    rounds: [],
  };
}

/** The row after a decision, as the commit leaves it: its columns changed and its version moved on by its events. */
export function applied<R>(match: MatchRow, decision: Decision<R>): MatchRow {
  return { ...match, ...decision.update, version: match.version + decision.events.length } as MatchRow;
}

/** Alice and Bob seated, Alice's rock beating Bob's scissors at `now`: Alice moves first. */
export function matchInPlay(now: Date, initialMs: number | null = 300_000): { match: MatchRow; state: State } {
  let match = waitingMatch(initialMs);
  for (const player of [alice, bob]) match = { ...applied(match, decideSeat(match, player)), [match.player0Id === null ? 'player0' : 'player1']: { ...player, botLevel: null } };
  for (const [seat, hand] of [[0, 'rock'], [1, 'scissors']] as const) {
    const decided = decideHand(match, seat, hand, now, openerTimes);
    if (decided === 'lapsed') throw new Error('the opener lapsed');
    match = decided.next;
  }
  return { match, state: newGame({ rules: DEFAULT_RULES, first: match.first as Player }) };
}
