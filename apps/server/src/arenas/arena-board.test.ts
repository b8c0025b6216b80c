import { describe, expect, it } from 'vitest';
import { ArenaBoard, standingsOf } from './arena-board.js';
import type { EntrantRow, GameRow } from './arena-standings.js';

const t0 = Date.UTC(2026, 5, 1, 12);
const ids = Array.from({ length: 12 }, (_, i) => `p${String(i).padStart(2, '0')}`);
const entrants: EntrantRow[] = ids.map((playerId, i) => ({ playerId, name: playerId, rating: 1500 + i, joinedAt: new Date(t0), active: true, activeSince: new Date(t0) }));

/** An arena's games as a seeded script: pairs made every few seconds, each ending some seconds later with any result. */
function script(seed: number): GameRow[] {
  let s = seed;
  const random = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  const games: GameRow[] = [];
  for (let round = 0; round < 8; round++) {
    const order = [...ids].sort(() => random() - 0.5);
    for (let i = 0; i + 1 < order.length; i += 2) {
      const createdAt = new Date(t0 + round * 60_000);
      const r = random();
      const [winner, endReason] = r < 0.4 ? [0, 'quan-gone'] : r < 0.8 ? [1, 'timeout'] : r < 0.9 ? [null, 'repetition'] : [null, 'abort'];
      games.push({
        matchId: `m${round}-${i}`,
        player0Id: order[i]!,
        player1Id: order[i + 1]!,
        ended: true,
        winner,
        endReason,
        endedAt: new Date(createdAt.getTime() + 1000 + Math.floor(random() * 50_000)),
        createdAt,
        first: 0,
        firstMoveDeadline: new Date(createdAt.getTime() + 30_000),
      });
    }
  }
  return games;
}

const live = (game: GameRow): GameRow => ({ ...game, ended: false, winner: null, endReason: null, endedAt: null });
const lines = (board: ArenaBoard) => board.standings().map((s) => [s.playerId, s.rank, s.score, s.points.join(''), s.playing, s.lastOpponent, s.noShow]);

describe('an arena board kept from games as they come', () => {
  it('ranks as the standings made from every row, whatever the batches the games arrive in and however often they are seen again', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const games = script(seed);
      const board = new ArenaBoard().setEntrants(entrants);
      // Each tick sees the games made so far as in play or ended, as the rows were then (and some of the earlier ones again).
      for (let minute = 0; minute <= 10; minute++) {
        const at = t0 + minute * 60_000;
        const seen = games.filter((g) => g.createdAt.getTime() <= at).map((g) => (g.endedAt!.getTime() <= at ? g : live(g)));
        board.apply(seen.filter((_, i) => (i + minute) % 3 !== 0));
        board.apply(seen.filter((_, i) => (i + minute) % 3 === 0));
        expect(lines(board)).toEqual(lines(new ArenaBoard().setEntrants(entrants).apply(seen)));
      }
      expect(board.standings()).toEqual(standingsOf(entrants, games));
      expect(board.games().live).toEqual([]);
    }
  });

  it('puts a result that commits late back where it ended, and counts a game seen again once', () => {
    const [a, b, c] = ids;
    const game = (matchId: string, player1Id: string, winner: number, endedAt: number): GameRow => ({
      matchId, player0Id: a!, player1Id, ended: true, winner, endReason: 'quan-gone', endedAt: new Date(endedAt), createdAt: new Date(endedAt - 500), first: 0, firstMoveDeadline: null,
    });
    const board = new ArenaBoard().setEntrants(entrants.slice(0, 3));
    // Won, won, then (seen last, ended between) a loss: the streak was broken, so the third win is not doubled.
    board.apply([game('m1', b!, 0, t0 + 1000), game('m3', c!, 0, t0 + 3000)]);
    board.apply([game('m2', b!, 1, t0 + 2000)]);
    board.apply([game('m1', b!, 0, t0 + 1000)]);
    expect(board.standingOf(a!)).toMatchObject({ points: [2, 0, 2], score: 4, games: 3, onFire: false });
    expect(board.standingOf(b!)).toMatchObject({ points: [0, 2], score: 2 });
    expect(board.games().recent.map((g) => g.matchId)).toEqual(['m3', 'm2', 'm1']);
  });
});
