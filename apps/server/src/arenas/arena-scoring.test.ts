import { describe, expect, it } from 'vitest';
import { arenaPairs, waitOf } from './arena-pairing.js';
import { outcomeFor, tally, type Outcome } from './arena-scoring.js';
import { standingsOf } from './arena-board.js';
import { noShows, type EntrantRow, type GameRow } from './arena-standings.js';

const played = (outcomes: Outcome[]) => outcomes.map((outcome, i) => ({ matchId: `m${i}`, outcome }));

describe('arena points', () => {
  it('gives 2 a win, 1 a draw, 0 a loss', () => {
    expect(tally(played(['win', 'draw', 'loss']))).toMatchObject({ score: 3, points: [2, 1, 0], onFire: false, wins: 1, games: 3 });
  });

  it('doubles each win after two in a row until a game is not won', () => {
    const t = tally(played(['win', 'win', 'win', 'win', 'draw', 'win', 'win', 'win', 'loss', 'win']));
    expect(t.points).toEqual([2, 2, 4, 4, 1, 2, 2, 4, 0, 2]);
    expect(t.score).toBe(23);
    expect(t.onFire).toBe(false);
    expect(tally(played(['loss', 'win', 'win'])).onFire).toBe(true);
  });

  it('counts no game that was aborted, a loss for both when both left', () => {
    expect(outcomeFor(0, { winner: null, endReason: 'abort' })).toBeNull();
    expect(outcomeFor(1, { winner: null, endReason: 'abandon' })).toBe('loss');
    expect(outcomeFor(1, { winner: null, endReason: 'repetition' })).toBe('draw');
    expect(outcomeFor(1, { winner: 1, endReason: 'timeout' })).toBe('win');
    expect(outcomeFor(0, { winner: 1, endReason: 'resign' })).toBe('loss');
  });
});

describe('an arena played through scripted results', () => {
  const t0 = Date.UTC(2026, 0, 1, 12);
  const entrant = (playerId: string, rating: number, joinedMinute = 0): EntrantRow => ({
    playerId,
    name: playerId,
    rating,
    joinedAt: new Date(t0 + joinedMinute * 60_000),
    active: true,
    activeSince: new Date(t0 + joinedMinute * 60_000),
  });
  const entrants = [entrant('an', 1500), entrant('binh', 1700), entrant('chi', 1600), entrant('dung', 1400, 5)];
  const games: GameRow[] = [];
  // Each step pairs whoever is free through the arena's own pairing, then ends the games with the scripted result for the higher-ranked seat.
  function step(minute: number, script: Record<string, 'win' | 'draw' | 'loss'>) {
    const standings = standingsOf(entrants, games);
    // The script's pairs never wait long enough to meet again.
    const pairs = arenaPairs(standings.filter((s) => s.playing === null), t0 + minute * 60_000, Infinity);
    for (const [a, b] of pairs) {
      const result = script[a.playerId] ?? 'draw';
      games.push({
        matchId: `g${games.length}`,
        player0Id: a.playerId,
        player1Id: b.playerId,
        ended: true,
        winner: result === 'win' ? 0 : result === 'loss' ? 1 : null,
        endReason: result === 'draw' ? 'repetition' : 'quan-gone',
        endedAt: new Date(t0 + minute * 60_000),
        createdAt: new Date(t0 + (minute - 1) * 60_000),
        first: 0,
        firstMoveDeadline: null,
      });
    }
    return pairs.map(([a, b]) => [a.playerId, b.playerId]);
  }

  it('checks points, streaks and ranks after every round', () => {
    // Before any game: rating decides, dung (who joined last) at the bottom.
    expect(standingsOf(entrants, games).map((s) => s.playerId)).toEqual(['binh', 'chi', 'an', 'dung']);
    expect(step(1, { binh: 'win', an: 'win' })).toEqual([['binh', 'chi'], ['an', 'dung']]);
    let s = standingsOf(entrants, games);
    expect(s.map((x) => [x.playerId, x.score, x.rank])).toEqual([['binh', 2, 1], ['an', 2, 2], ['chi', 0, 3], ['dung', 0, 4]]);
    // Last opponents are not paired again at once: binh meets an, chi meets dung.
    expect(step(2, { binh: 'win', chi: 'win' })).toEqual([['binh', 'an'], ['chi', 'dung']]);
    expect(step(3, { binh: 'win', an: 'draw' })).toEqual([['binh', 'chi'], ['an', 'dung']]);
    s = standingsOf(entrants, games);
    const binh = s.find((x) => x.playerId === 'binh')!;
    expect(binh).toMatchObject({ points: [2, 2, 4], score: 8, onFire: true, rank: 1, wins: 3 });
    expect(step(4, { binh: 'loss', chi: 'win' })).toEqual([['binh', 'an'], ['chi', 'dung']]);
    s = standingsOf(entrants, games);
    expect(s.map((x) => [x.playerId, x.score, x.points.join('')])).toEqual([
      ['binh', 8, '2240'],
      ['an', 5, '2012'],
      ['chi', 4, '0202'],
      ['dung', 1, '0010'],
    ]);
    expect(s.find((x) => x.playerId === 'binh')!.onFire).toBe(false);
    expect(s.map((x) => x.rank)).toEqual([1, 2, 3, 4]);
  });

  it('counts a game still in play once it ends, and marks its players as playing', () => {
    const live: GameRow = { matchId: 'live', player0Id: 'an', player1Id: 'binh', ended: false, winner: null, endReason: null, endedAt: null, createdAt: new Date(t0), first: null, firstMoveDeadline: null };
    let s = standingsOf(entrants, [live]);
    expect(s.find((x) => x.playerId === 'an')).toMatchObject({ playing: 'live', score: 0, lastOpponent: 'binh' });
    s = standingsOf(entrants, [{ ...live, ended: true, winner: 0, endReason: 'timeout', endedAt: new Date(t0 + 1) }]);
    expect(s.find((x) => x.playerId === 'an')).toMatchObject({ playing: null, score: 2, rank: 1 });
  });
});

describe('players who do not show up', () => {
  const t0 = Date.UTC(2026, 0, 1, 12);
  const at = (s: number) => new Date(t0 + s * 1000);
  const game = (over: Partial<GameRow>): GameRow => ({
    matchId: 'g',
    player0Id: 'an',
    player1Id: 'binh',
    ended: true,
    winner: null,
    endReason: 'abort',
    endedAt: at(40),
    createdAt: at(0),
    first: 1,
    firstMoveDeadline: at(40),
    ...over,
  });

  it('are the first mover who never moved, whoever lost by leaving, or both who left', () => {
    expect(noShows(game({}))).toEqual([1]);
    // An abort before the deadline was asked for, not a no-show.
    expect(noShows(game({ endedAt: at(10) }))).toEqual([]);
    expect(noShows(game({ endReason: 'abandon', winner: 0 }))).toEqual([1]);
    expect(noShows(game({ endReason: 'abandon', winner: null }))).toEqual([0, 1]);
    expect(noShows(game({ endReason: 'resign', winner: 0 }))).toEqual([]);
  });

  it('are marked to be paused once, not again after they join again', () => {
    const entrant = (playerId: string, activeSince: Date): EntrantRow => ({ playerId, name: playerId, rating: 1500, joinedAt: at(0), active: true, activeSince });
    const marked = standingsOf([entrant('an', at(0)), entrant('binh', at(0))], [game({})]);
    expect(marked.map((s) => [s.playerId, s.noShow])).toEqual([['an', false], ['binh', true]]);
    const back = standingsOf([entrant('an', at(0)), entrant('binh', at(50))], [game({})]);
    expect(back.every((s) => !s.noShow)).toBe(true);
  });
});

describe('arena pairing', () => {
  const WAIT = 20_000;
  const free = (playerId: string, rank: number, lastOpponent: string | null = null, lastEndedAt: number | null = null) => ({ playerId, rank, lastOpponent, lastEndedAt });
  const names = (pairs: ReturnType<typeof arenaPairs>) => pairs.map(([x, y]) => x.playerId + y.playerId);

  it('pairs neighbours in the standings and leaves an odd one out', () => {
    const pairs = arenaPairs([free('c', 3), free('a', 1), free('e', 5), free('b', 2), free('d', 4)], 0, WAIT);
    expect(names(pairs)).toEqual(['ab', 'cd']);
  });

  it('pairs the same two again only once both have waited, and not while someone else is free', () => {
    const justMet = [free('a', 1, 'b', 1000), free('b', 2, 'a', 1000)];
    expect(arenaPairs(justMet, 1000, WAIT)).toEqual([]);
    expect(arenaPairs(justMet, 1000 + WAIT - 1, WAIT)).toEqual([]);
    expect(names(arenaPairs(justMet, 1000 + WAIT, WAIT))).toEqual(['ab']);
    expect(names(arenaPairs([...justMet, free('c', 3)], 1000 + WAIT, WAIT))).toEqual(['ac']);
    // B played C since: A, whose last game was B, waits until B too has been free that long.
    expect(arenaPairs([free('a', 1, 'b', 1000), free('b', 2, 'c', 5000)], 1000 + WAIT, WAIT)).toEqual([]);
    expect(names(arenaPairs([free('a', 1, 'b', 1000), free('b', 2, 'c', 5000)], 5000 + WAIT, WAIT))).toEqual(['ab']);
  });

  it('says why a free player waits: alone, everyone else playing, the last opponent met again at a time, or about to be paired', () => {
    const a = free('a', 1, 'b', 1000);
    const b = { ...free('b', 2, 'a', 1000), name: 'Bình', active: true, playing: null };
    expect(waitOf(a, null, { active: 1, free: 1 }, WAIT)).toEqual({ reason: 'alone' });
    expect(waitOf(a, { ...b, playing: 'm1' }, { active: 3, free: 1 }, WAIT)).toEqual({ reason: 'busy' });
    expect(waitOf(a, b, { active: 2, free: 2 }, WAIT)).toEqual({ reason: 'rematch', opponent: 'Bình', at: 1000 + WAIT });
    expect(waitOf(a, b, { active: 3, free: 3 }, WAIT)).toEqual({ reason: 'pairing' });
    expect(waitOf(free('c', 3), null, { active: 3, free: 2 }, WAIT)).toEqual({ reason: 'pairing' });
  });
});
