// R10.9 with R7.2: four-player records: headers, move numbers per round of
// four, Result and Score for free for all and for teams, round trips, errors.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Seat } from './four-board.js';
import { fourLegalMoves, fourPlayFast } from './four-play.js';
import { resolveFourRules, type FourRuleOptions } from './four-rules.js';
import { newFourGame, type FourState } from './four-state.js';
import type { Move } from './moves.js';
import { formatRecord, parseRecord, type FourGameRecord } from './record.js';

const FREE = resolveFourRules({ players: 4 });
const TEAMS = resolveFourRules({ players: 4, teams: 2 });

const record = (moves: Move[], extra: Partial<FourGameRecord> = {}): FourGameRecord => ({
  rules: FREE,
  first: 0,
  moves,
  termination: null,
  tags: [],
  ...extra,
});

/** Plays the first legal move (or the one `choices` picks) until the game ends or `limit` plies. */
function game(rules: FourRuleOptions, first: Seat, choices: readonly number[], limit = Infinity): Move[] {
  let state: FourState = newFourGame({ rules, first });
  const moves: Move[] = [];
  while (state.position.status === 'playing' && moves.length < limit) {
    const legal = fourLegalMoves(state);
    const move = legal[(choices[moves.length % Math.max(1, choices.length)] ?? 0) % legal.length]!;
    state = fourPlayFast(state, move) as FourState;
    moves.push(move);
  }
  return moves;
}

/** R10.11, then players 1, 2 and 3 reply (2>, 4<, 3>) and player 0 plays 3>. */
const R10_11_THEN = [
  { square: 1, dir: -1 },
  { square: 8, dir: 1 },
  { square: 16, dir: -1 },
  { square: 21, dir: 1 },
  { square: 3, dir: 1 },
] as const satisfies Move[];

describe('R10.9 format', () => {
  it('adds Players (and Teams) after Rules, and numbers each round of four plies', () => {
    expect(formatRecord(record([...R10_11_THEN], { tags: [{ key: 'Date', value: '2026-01-02' }] }))).toBe(
      [
        '[Rules "qv=10,qn=0,gap=0,end=squares,skip=0,limit=800"]',
        '[Players "4"]',
        '[First "0"]',
        '[Result "*"]',
        '[Reason "*"]',
        '[Score "*"]',
        '[Date "2026-01-02"]',
        '',
        '1. 1< 2> 4< 3> 2. 3>',
        '',
      ].join('\n'),
    );
    const teams = formatRecord(record([...R10_11_THEN], { rules: TEAMS }), 'screen');
    expect(teams.startsWith('[Rules "qv=10,qn=0,gap=0,end=squares,skip=0,limit=800"]\n[Players "4"]\n[Teams "2"]\n[First "0"]\n')).toBe(true);
    expect(teams.endsWith('\n1. 1\u21bb 2. 2\u21ba 3. 4\u21bb 4. 3\u21ba 5. 3\u21ba\n')).toBe(true);
  });

  it('writes places and four scores free for all, the team result with teams', () => {
    // These choices end the game by quan-gone at ply 366 with scores 31, 7, 48, 54.
    const free = formatRecord(record(game(FREE, 0, [2, 7, 1, 8])));
    expect(free).toContain('[Result "3-4-2-1"]\n[Reason "quan-gone"]\n[Score "31-7-48-54"]\n');
    // Scores may be negative (debts): the sign follows the separator.
    const long = formatRecord(record(game(FREE, 0, [3, 1, 4, 1, 5, 9, 2, 6])));
    expect(long).toContain('[Result "3-2-4-1"]\n[Reason "ply-limit"]\n[Score "0-39--37-135"]\n');
    expect(parseRecord(long).ok).toBe(true);
    const teams = formatRecord(record(game(TEAMS, 0, [2, 7, 1, 8]), { rules: TEAMS }));
    expect(teams).toMatch(/\[Result "(1-0|0-1|1\/2-1\/2)"\]\n\[Reason "[a-z-]+"\]\n\[Score "(-?\d+-){3}-?\d+"\]/);
  });

  it('writes a match termination: a team with teams, places free for all', () => {
    const moves = [...R10_11_THEN];
    const teams = formatRecord(record(moves, { rules: TEAMS, termination: { reason: 'resignation', winner: 1 } }));
    expect(teams).toContain('[Result "0-1"]\n[Reason "resignation"]\n[Score "*"]\n');
    const free = formatRecord(record(moves, { termination: { reason: 'abandonment', ranking: [2, 1, 3, 3] } }));
    expect(free).toContain('[Result "2-1-3-3"]\n[Reason "abandonment"]\n[Score "*"]\n');
    expect(() => formatRecord(record(moves, { termination: { reason: 'resignation', winner: 1 } }))).toThrow(RangeError);
    expect(() => formatRecord(record(moves, { termination: { reason: 'resignation', ranking: [1, 1, 2, 4] } }))).toThrow(RangeError);
    expect(() => formatRecord(record([{ square: 7, dir: 1 }]))).toThrow(RangeError);
    expect(() => formatRecord(record([], { tags: [{ key: 'Teams', value: 'x' }] }))).toThrow(RangeError);
  });
});

describe('R10.9 parse', () => {
  const arbitraryRecord = fc
    .record({
      rules: fc.constantFrom(FREE, TEAMS, resolveFourRules({ players: 4, quanNon: 5, emptyQuanIsGap: true, plyLimit: 60 })),
      first: fc.constantFrom<Seat>(0, 1, 2, 3),
      choices: fc.array(fc.nat(), { maxLength: 50 }),
      limit: fc.oneof(fc.constant(Infinity), fc.nat({ max: 30 })),
      style: fc.constantFrom('ascii' as const, 'screen' as const),
    })
    .map(({ rules, first, choices, limit, style }) => ({ record: record(game(rules, first, choices, limit), { rules, first }), style }));

  it('reads back what it writes, in either style', () => {
    fc.assert(
      fc.property(arbitraryRecord, ({ record, style }) => {
        expect(parseRecord(formatRecord(record, style))).toEqual({ ok: true, record });
      }),
      { numRuns: 60 },
    );
  });

  it('reads terminations back', () => {
    const moves = [...R10_11_THEN];
    for (const r of [
      record(moves, { rules: TEAMS, termination: { reason: 'resignation', winner: null } }),
      record(moves, { termination: { reason: 'timeout', ranking: [1, 1, 1, 4] } }),
    ]) {
      expect(parseRecord(formatRecord(r))).toEqual({ ok: true, record: r });
    }
  });

  const text = (headers: Record<string, string>, moves = '1. 1< 2> 4< 3>') =>
    Object.entries({ Rules: 'qv=10,qn=0,gap=0,end=squares,skip=0,limit=800', Players: '4', First: '0', Result: '*', Reason: '*', Score: '*', ...headers })
      .map(([key, value]) => `[${key} "${value}"]`)
      .join('\n') + `\n\n${moves}\n`;

  it.each([
    ['a fifth seat', { First: '4' }, 'First must be "0" to "3"'],
    ['teams other than 2', { Teams: '3' }, 'Teams must be "2"'],
    ['a two-player result free for all', { Result: '1-0', Reason: 'resignation' }, 'Result must be places like 1-3-2-4 or *'],
    ['places no scores give', { Result: '1-1-2-4', Reason: 'resignation' }, 'Result must be places like 1-3-2-4 or *'],
    ['places with teams', { Teams: '2', Result: '1-2-3-4', Reason: 'resignation' }, 'Result must be 1-0, 0-1, 1/2-1/2 or *'],
    ['a score for a termination', { Result: '1-2-3-4', Reason: 'resignation', Score: '30-30-40-40' }, 'only the rules give a score (R5.4)'],
    ['a two-player score', { Result: '1-2-3-4', Reason: 'resignation', Score: '30-40' }, 'Score must be like 40-30-35-35 or *'],
  ])('refuses %s', (_, headers, message) => {
    const parsed = parseRecord(text(headers));
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error.message).toBe(message);
  });

  it('refuses a move number that is not due, and checks the outcome of an ended game', () => {
    const parsed = parseRecord(text({}, '1. 1< 2> 2. 4< 3>'));
    expect(!parsed.ok && parsed.error.message).toBe('expected a move, found "2."');
    const moves = game(FREE, 0, [2, 7, 1, 8]);
    const good = formatRecord(record(moves));
    const score = /\[Score "([^"]+)"\]/.exec(good)![1]!;
    const bad = parseRecord(good.replace(`[Score "${score}"]`, '[Score "35-35-35-35"]'));
    expect(!bad.ok && bad.error.message).toBe(`the score is ${score}`);
  });

  it('keeps a two-player record with a Players tag of names a two-player record', () => {
    const two = '[Rules "qv=10,qn=0,gap=0,end=squares,skip=0,limit=400"]\n[Players "4"]\n[First "0"]\n[Result "*"]\n[Reason "*"]\n[Score "*"]\n\n1. 1<\n';
    const four = parseRecord(two);
    // With Players "4" the same text is a four-player record, limit and all.
    expect(four.ok && four.record.rules).toEqual({ ...FREE, plyLimit: 400 });
    const named = parseRecord(two.replace('[Players "4"]', '[Players "Lan, Minh"]'));
    expect(named.ok && named.record.rules).not.toHaveProperty('players');
    expect(named.ok && named.record.tags).toEqual([{ key: 'Players', value: 'Lan, Minh' }]);
  });
});
