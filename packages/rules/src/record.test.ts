// R7.2 game records: format, parse, round trip, and errors with positions.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Player } from './board.js';
import type { Move } from './moves.js';
import { legalMoves, playFast } from './play.js';
import { formatRecord, parseRecord, type GameRecord, type MatchTermination, type RecordTag } from './record.js';
import { DEFAULT_RULES, PRESETS, resolveRules, type RuleOptions } from './rule-options.js';
import { newGame, type State } from './state.js';

const record = (moves: Move[], extra: Partial<GameRecord> = {}): GameRecord => ({
  rules: DEFAULT_RULES,
  first: 0,
  moves,
  termination: null,
  tags: [],
  ...extra,
});

/** R9 E1, a reply by player 1 (their 5<), then player 0's 4>. */
const OPENING = [
  { square: 1, dir: -1 },
  { square: 11, dir: -1 },
  { square: 4, dir: 1 },
] as const satisfies Move[];

describe('R7.2 format', () => {
  it('writes the headers, then numbered moves in R7.1 notation', () => {
    const text = formatRecord(record([...OPENING], { tags: [{ key: 'Date', value: '2025-05-01' }] }));
    expect(text).toBe(
      [
        '[Rules "qv=10,qn=0,gap=0,end=squares,skip=0,limit=400"]',
        '[First "0"]',
        '[Result "*"]',
        '[Reason "*"]',
        '[Score "*"]',
        '[Date "2025-05-01"]',
        '',
        '1. 1< 5< 2. 4>',
        '',
      ].join('\n'),
    );
  });

  it('writes every ply numbered, with arrows, in the screens\' style', () => {
    const text = formatRecord(record([...OPENING]), 'screen');
    expect(text.endsWith('\n\n1. 1\u21bb 2. 5\u21bb 3. 4\u21ba\n')).toBe(true);
    // Player 1 moving first: their `1<` is ring square 7 sown −1, still `1↻`.
    const theirs = formatRecord(record([{ square: 7, dir: -1 }, { square: 3, dir: 1 }], { first: 1 }), 'screen');
    expect(theirs.endsWith('\n1. 1\u21bb 2. 3\u21ba\n')).toBe(true);
  });

  it('breaks a long line of the screens\' style before a number', () => {
    const moves: Move[] = [];
    let state = newGame({ rules: DEFAULT_RULES, first: 0 });
    while (moves.length < 40 && state.position.status === 'playing') {
      const move = legalMoves(state)[0]!;
      state = playFast(state, move) as State;
      moves.push(move);
    }
    const lines = formatRecord(record(moves), 'screen').trimEnd().split('\n\n')[1]!.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(80);
      expect(line).toMatch(/^\d+\. /);
    }
  });

  it('writes the result, reason and score of a game the rules ended', () => {
    const text = formatRecord(record([{ square: 2, dir: 1 }], { rules: resolveRules({ plyLimit: 1 }) }));
    expect(text).toContain('[Result "1/2-1/2"]\n[Reason "ply-limit"]\n[Score "25-25"]\n');
  });

  it('writes a match termination for a game the rules had not ended (R5.4)', () => {
    const moves: Move[] = [
      { square: 7, dir: -1 },
      { square: 3, dir: 1 },
      { square: 10, dir: 1 },
    ];
    const text = formatRecord(record(moves, { first: 1, termination: { reason: 'resignation', winner: 0 } }));
    expect(text).toContain('[First "1"]\n[Result "1-0"]\n[Reason "resignation"]\n[Score "*"]\n');
    // Player 1 moves first: their `1<` is ring square 7 sown −1.
    expect(text).toContain('\n1. 1< 3> 2. 4>\n');
  });

  it('escapes quotes and backslashes in header values', () => {
    const tags = [{ key: 'Players', value: 'An "the bold" \\ Binh' }];
    const text = formatRecord(record([], { tags }));
    expect(text).toContain('[Players "An \\"the bold\\" \\\\ Binh"]');
    expect(parseRecord(text)).toEqual({ ok: true, record: record([], { tags }) });
  });

  it('throws on a record that cannot be written', () => {
    expect(() => formatRecord(record([{ square: 7, dir: 1 }]))).toThrow(RangeError);
    expect(() => formatRecord(record([], { tags: [{ key: 'Result', value: '1-0' }] }))).toThrow(RangeError);
    expect(() => formatRecord(record([], { tags: [{ key: 'Bad key', value: '' }] }))).toThrow(RangeError);
    expect(() => formatRecord(record([], { termination: { reason: 'quan-gone', winner: 0 } }))).toThrow(RangeError);
    expect(() =>
      formatRecord(record([{ square: 2, dir: 1 }], { rules: resolveRules({ plyLimit: 1 }), termination: { reason: 'timeout', winner: 1 } })),
    ).toThrow(RangeError);
    expect(() => formatRecord(record([], { tags: [{ key: 'Note', value: 'two\nlines' }] }))).toThrow(RangeError);
  });
});

describe('R7.2 parse', () => {
  it('reads what rules.md shows, spacing free', () => {
    const text = '[Rules "qv=10,qn=0,gap=0,end=squares,skip=0,limit=400"]\n[First "0"]\n[Result "*"]\n[Reason "*"]\n[Score "*"]\n\n1.1<   5<\n2. 4>';
    expect(parseRecord(text)).toEqual({ ok: true, record: record([...OPENING]) });
  });

  it('reads the screens\' style and either spelling in either numbering', () => {
    const head = '[Rules "qv=10,qn=0,gap=0,end=squares,skip=0,limit=400"]\n[First "0"]\n[Result "*"]\n[Reason "*"]\n[Score "*"]\n\n';
    for (const moves of ['1. 1\u21bb 2. 5\u21bb 3. 4\u21ba', '1.1< 2.5\u21bb 3.4>', '1. 1\u21bb 5< 2. 4\u21ba']) {
      expect(parseRecord(head + moves)).toEqual({ ok: true, record: record([...OPENING]) });
    }
  });

  it('keeps extra headers in order', () => {
    const text = formatRecord(record([], { tags: [{ key: 'White', value: 'x' }, { key: 'Date', value: 'y' }] }));
    const parsed = parseRecord(text);
    expect(parsed.ok && parsed.record.tags).toEqual([
      { key: 'White', value: 'x' },
      { key: 'Date', value: 'y' },
    ]);
  });

  const base = formatRecord(record([...OPENING]));
  it.each([
    {
      name: 'an illegal move',
      text: base.replace('2. 4>', '2. 1>'),
      where: { line: 7, column: 13 },
      message: /ERR_EMPTY_SQUARE/,
    },
    {
      name: 'a malformed move',
      text: base.replace('5<', '5='),
      where: { line: 7, column: 7 },
      message: /move/,
    },
    {
      name: 'a move out of range',
      text: base.replace('5<', '6<'),
      where: { line: 7, column: 7 },
      message: /not a move/,
    },
    {
      name: 'a wrong move number',
      text: base.replace('2. 4>', '3. 4>'),
      where: { line: 7, column: 10 },
      message: /"2\."/,
    },
    {
      name: 'a missing move number',
      text: base.replace('2. 4>', '4>'),
      where: { line: 7, column: 10 },
      message: /"2\."/,
    },
    {
      name: 'a missing ply number in the screens\' style',
      text: formatRecord(record([...OPENING]), 'screen').replace('3. ', ''),
      where: { line: 7, column: 13 },
      message: /"3\."/,
    },
    {
      name: 'a wrong ply number in the screens\' style',
      text: formatRecord(record([...OPENING]), 'screen').replace('3. ', '2. '),
      where: { line: 7, column: 13 },
      message: /"3\."/,
    },
    {
      name: 'an arrow that is no direction',
      text: formatRecord(record([...OPENING]), 'screen').replace('5\u21bb', '5\u2192'),
      where: { line: 7, column: 10 },
      message: /move/,
    },
    {
      name: 'a number without a move',
      text: base.replace('2. 4>', '2.'),
      where: { line: 8, column: 1 },
      message: /must follow/,
    },
    {
      name: 'a missing header',
      text: base.replace('[First "0"]\n', ''),
      where: { line: 6, column: 1 },
      message: /First/,
    },
    {
      name: 'a duplicate header',
      text: base.replace('[First "0"]', '[First "0"]\n[First "1"]'),
      where: { line: 3, column: 1 },
      message: /twice/,
    },
    {
      name: 'bad rules',
      text: base.replace('qn=0', 'qn=99'),
      where: { line: 1, column: 9 },
      message: /quanNon/,
    },
    {
      name: 'a bad first player',
      text: base.replace('[First "0"]', '[First "2"]'),
      where: { line: 2, column: 9 },
      message: /First/,
    },
    {
      name: 'an unclosed value',
      text: base.replace('[Score "*"]', '[Score "*]'),
      where: { line: 5, column: 11 },
      message: /not closed/,
    },
    {
      name: 'a header sharing its line',
      text: base.replace('[Score "*"]', '[Score "*"] 1.'),
      where: { line: 5, column: 13 },
      message: /end its line/,
    },
    {
      name: 'a bad result',
      text: base.replace('[Result "*"]', '[Result "2-0"]'),
      where: { line: 3, column: 10 },
      message: /Result/,
    },
    {
      name: 'a claimed end the moves do not reach',
      text: base.replace('[Reason "*"]', '[Reason "quan-gone"]'),
      where: { line: 4, column: 10 },
      message: /do not end/,
    },
    {
      name: 'a score for an unfinished game',
      text: base.replace('[Score "*"]', '[Score "10-0"]'),
      where: { line: 5, column: 9 },
      message: /Score/,
    },
    {
      name: 'a termination without winner',
      text: base.replace('[Reason "*"]', '[Reason "timeout"]'),
      where: { line: 3, column: 10 },
      message: /needs a Result/,
    },
  ])('points at $name', ({ text, where, message }) => {
    const parsed = parseRecord(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect({ line: parsed.error.line, column: parsed.error.column }).toEqual(where);
    expect(parsed.error.message).toMatch(message);
    const lines = text.split('\n');
    const offset = lines.slice(0, where.line - 1).reduce((n, line) => n + line.length + 1, 0) + where.column - 1;
    expect(parsed.error.offset).toBe(offset);
  });

  it('checks the stated outcome of a game the rules ended', () => {
    const ended = formatRecord(record([{ square: 2, dir: 1 }], { rules: resolveRules({ plyLimit: 1 }) }));
    expect(parseRecord(ended).ok).toBe(true);
    for (const [from, to] of [
      ['[Score "25-25"]', '[Score "26-24"]'],
      ['[Result "1/2-1/2"]', '[Result "1-0"]'],
      ['[Reason "ply-limit"]', '[Reason "repetition"]'],
    ] as const) {
      const parsed = parseRecord(ended.replace(from, to));
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error.line).toBeLessThanOrEqual(5);
    }
  });
});

const arbitraryRules: fc.Arbitrary<RuleOptions> = fc.oneof(
  fc.constant(PRESETS.classic),
  fc.constant(PRESETS.vietnam),
  fc
    .record({
      quanValue: fc.constantFrom(10 as const, 5 as const),
      quanNon: fc.integer({ min: 0, max: 12 }),
      emptyQuanIsGap: fc.boolean(),
      endWhen: fc.constantFrom('quan-squares-empty' as const, 'quan-pieces-captured' as const),
      skipOrigin: fc.boolean(),
      plyLimit: fc.integer({ min: 1, max: 300 }),
    })
    .map((options) => resolveRules(options)),
);

const arbitraryTags: fc.Arbitrary<RecordTag[]> = fc
  .uniqueArray(
    fc.record({
      key: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,8}$/).filter((key) => !['Rules', 'First', 'Result', 'Reason', 'Score'].includes(key)),
      value: fc.string({ maxLength: 20 }).filter((value) => !/[\u0000-\u001f\u007f]/.test(value)),
    }),
    { selector: (tag) => tag.key, maxLength: 4 },
  );

describe('R7.2 round trip', () => {
  it.each(['ascii', 'screen'] as const)('parsing a record formatted in the %s style gives the same record back', (style) => {
    fc.assert(
      fc.property(
        arbitraryRules,
        fc.constantFrom<Player>(0, 1),
        fc.array(fc.nat(), { maxLength: 300 }),
        fc.nat(),
        fc.option(fc.record({ reason: fc.constantFrom('resignation', 'timeout', 'abandonment'), winner: fc.constantFrom<Player | null>(0, 1, null) })),
        arbitraryTags,
        (rules, first, choices, cut, termination, tags) => {
          let state: State = newGame({ rules, first });
          const moves: Move[] = [];
          const length = choices.length === 0 ? 0 : cut % (choices.length + 1);
          while (state.position.status === 'playing' && moves.length < length) {
            const legal = legalMoves(state);
            const move = legal[choices[moves.length]! % legal.length]!;
            state = playFast(state, move) as State;
            moves.push(move);
          }
          const ended = state.position.status === 'ended';
          const game: GameRecord = {
            rules,
            first,
            moves,
            termination: ended ? null : (termination as MatchTermination | null),
            tags,
          };
          const text = formatRecord(game, style);
          expect(parseRecord(text)).toEqual({ ok: true, record: game });
        },
      ),
      { numRuns: 200 },
    );
  });
});
