// R7.2 Game record: a header block of `[Key "value"]` lines (at least Rules,
// First, Result, Reason, Score) followed by the numbered moves in R7.1
// notation. Parsing a formatted record gives the same record back.
//
//   [Rules "qv=10,qn=0,gap=0,end=squares,skip=0,limit=400"]
//   [First "0"]
//   [Result "1-0"]
//   [Reason "quan-gone"]
//   [Score "42-28"]
//
//   1. 3> 2< 2. 5< 1>
//
// The screens' style numbers every ply, as the game log does, and writes
// the moves with arrows (see notation.ts): `1. 3↺ 2. 2↻ 3. 5↻ 4. 1↺`. A
// record in either style, or with either spelling of a move, reads back
// the same; R7.2's style is written by default.
//
// Result is `1-0` (player 0 won), `0-1`, `1/2-1/2` or `*` (no result). Reason
// and Score are those of R5 when the moves end the game. A game the rules
// had not ended is either unfinished (`*` for all three) or ended by a match
// outcome decided outside the rules (R5.4): Reason names it (`resignation`,
// `timeout`, ...), Result gives the winner and Score is `*`.
//
// A four-player record (R10.9) adds `[Players "4"]` after Rules and, with
// teams, `[Teams "2"]`; First is 0–3, a move number opens each round of four
// plies (as R7.2's opens a round of two), and Result and Score are written
// as four-record-outcome.ts says. A record without Players is a two-player
// record, as before R10.

import type { Player } from './board.js';
import type { Seat } from './four-board.js';
import { isFourScoreText, type FourMatchTermination } from './four-record-outcome.js';
import { isFourRules, validateFourRules, type FourRuleOptions, type GameRules } from './four-rules.js';
import type { Move } from './moves.js';
import { directionOfSign, formatMove, parseMove } from './notation.js';
import { END_REASONS } from './position.js';
import type { RuleOptions } from './rule-options.js';
import { decodeRules, encodeRules } from './rules-codec.js';
import {
  isTerminationReason,
  recordGame,
  statedResult,
  terminationResult,
  TERMINATION_REASON,
  type RuledOutcome,
  type StatedResult,
} from './record-game.js';

/** R5.4: how a match ended when the rules had not ended it. */
export interface MatchTermination {
  /** Lower-case words joined by `-`, not one of the rules' end reasons. */
  readonly reason: string;
  readonly winner: Player | null;
}

/** An extra header (Date, Players, ...), kept in order. */
export interface RecordTag {
  readonly key: string;
  readonly value: string;
}

export interface GameRecord {
  readonly rules: RuleOptions;
  readonly first: Player;
  readonly moves: readonly Move[];
  readonly termination: MatchTermination | null;
  readonly tags: readonly RecordTag[];
}

/** R10.9: a four-player game's record. */
export interface FourGameRecord {
  readonly rules: FourRuleOptions;
  readonly first: Seat;
  readonly moves: readonly Move[];
  readonly termination: FourMatchTermination | null;
  readonly tags: readonly RecordTag[];
}

export interface RecordError {
  readonly message: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units like `offset`. */
  readonly column: number;
  /** 0-based index into the text. */
  readonly offset: number;
}

/** `ascii`: R7.2's pairs of R7.1 moves; `screen`: every ply numbered, moves with arrows. */
export type RecordStyle = 'ascii' | 'screen';

export type RecordParse =
  | { readonly ok: true; readonly record: GameRecord | FourGameRecord }
  | { readonly ok: false; readonly error: RecordError };

const REQUIRED_KEYS = ['Rules', 'First', 'Result', 'Reason', 'Score'] as const;
type RequiredKey = (typeof REQUIRED_KEYS)[number];
/**
 * R10.9's headers of a four-player record. In a two-player record they are
 * extra tags as any other (records written before R10 used `Players` for
 * names), except `[Players "4"]`, which makes a record four-player.
 */
const FOUR_KEYS: readonly string[] = ['Players', 'Teams'];

const KEY = /^[A-Za-z][A-Za-z0-9_]*$/;
const SCORE = /^(0|-?[1-9][0-9]*)-(0|-?[1-9][0-9]*)$/;
const LINE_WIDTH = 80;

/**
 * Writes a record. Replays it to find Result, Reason and Score, so an
 * inconsistent record (an illegal move, a termination after the rules ended
 * the game, a malformed tag) is a programming error and throws.
 */
export function formatRecord(record: GameRecord | FourGameRecord, style: RecordStyle = 'ascii'): string {
  const players = isFourRules(record.rules) ? 4 : 2;
  const game = recordGame(record.rules, record.first);
  record.moves.forEach((move, i) => {
    if (game.play(move) !== null) throw new RangeError(`move ${i + 1} is illegal`);
  });
  const ended = game.outcome();
  const { termination } = record;
  let result: string;
  let reason: string;
  let score: string;
  if (ended !== null) {
    if (termination !== null) throw new RangeError('the rules ended this game; it has no match termination');
    ({ result, reason, score } = ended);
  } else if (termination !== null) {
    if (!isTerminationReason(termination.reason)) {
      throw new RangeError(`"${termination.reason}" cannot name a match termination`);
    }
    result = terminationResult(termination, record.rules);
    reason = termination.reason;
    score = '*';
  } else {
    result = reason = score = '*';
  }

  const lines = [header('Rules', encodeRules(record.rules))];
  if (isFourRules(record.rules)) {
    lines.push(header('Players', '4'));
    if (record.rules.teams === 2) lines.push(header('Teams', '2'));
  }
  lines.push(
    header('First', String(record.first)),
    header('Result', result),
    header('Reason', reason),
    header('Score', score),
  );
  for (const tag of record.tags) {
    const reserved =
      (REQUIRED_KEYS as readonly string[]).includes(tag.key) ||
      (players === 4 ? FOUR_KEYS.includes(tag.key) : tag.key === 'Players' && tag.value === '4');
    if (!KEY.test(tag.key) || reserved) {
      throw new RangeError(`"${tag.key}" cannot be an extra header`);
    }
    lines.push(header(tag.key, tag.value));
  }
  lines.push('');

  const plies = style === 'screen';
  let line = '';
  record.moves.forEach((move, i) => {
    const text = formatMove(move, moverAt(record.first, i, players), plies ? 'arrows' : 'ascii');
    const numbered = plies || i % players === 0;
    const piece = numbered ? `${plies ? i + 1 : i / players + 1}. ${text}` : text;
    if (line === '') line = piece;
    else if (numbered && line.length + 1 + piece.length > LINE_WIDTH) {
      lines.push(line);
      line = piece;
    } else line += ` ${piece}`;
  });
  if (line !== '') lines.push(line);
  return `${lines.join('\n')}\n`;
}

/** Reads a record, checking every header, every move and the outcome; never throws. */
export function parseRecord(text: string): RecordParse {
  try {
    return { ok: true, record: new RecordParser(text).parse() };
  } catch (error) {
    if (error instanceof ParseError) return { ok: false, error: locate(text, error.message, error.offset) };
    throw error;
  }
}

class ParseError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

interface HeaderValue {
  readonly value: string;
  /** Where the value starts in the text, for error positions. */
  readonly offset: number;
}

class RecordParser {
  private at = 0;

  constructor(private readonly text: string) {}

  parse(): GameRecord | FourGameRecord {
    const headers = new Map<string, HeaderValue>();
    this.skipSpace();
    while (this.peek() === '[') {
      const start = this.at;
      const { key, value } = this.header();
      if (headers.has(key)) throw new ParseError(`header "${key}" given twice`, start);
      headers.set(key, value);
      this.skipSpace();
    }
    const get = (key: RequiredKey): HeaderValue => {
      const found = headers.get(key);
      if (found === undefined) throw new ParseError(`header "${key}" missing`, this.at);
      return found;
    };
    const rulesHeader = get('Rules');
    const firstHeader = get('First');
    const resultHeader = get('Result');
    const reasonHeader = get('Reason');
    const scoreHeader = get('Score');

    const rules = this.rules(rulesHeader, headers.get('Players'), headers.get('Teams'));
    const players = isFourRules(rules) ? 4 : 2;
    const tags: RecordTag[] = [];
    for (const [key, { value }] of headers) {
      const reserved = (REQUIRED_KEYS as readonly string[]).includes(key) || (players === 4 && FOUR_KEYS.includes(key));
      if (!reserved) tags.push({ key, value });
    }
    const firsts = players === 4 ? ['0', '1', '2', '3'] : ['0', '1'];
    if (!firsts.includes(firstHeader.value)) {
      throw new ParseError(players === 4 ? 'First must be "0" to "3"' : 'First must be "0" or "1"', firstHeader.offset);
    }
    const first = Number(firstHeader.value) as Seat;
    const stated = statedResult(resultHeader.value, rules);
    if (stated === undefined) {
      const forms = isFourRules(rules) && rules.teams !== 2 ? 'places like 1-3-2-4' : '1-0, 0-1, 1/2-1/2';
      throw new ParseError(`Result must be ${forms} or *`, resultHeader.offset);
    }

    const game = recordGame(rules, first);
    const moves: Move[] = [];
    // Set by the second move: a number before it means every ply is numbered (the screens' style).
    let plies: boolean | null = null;
    for (let token = this.token(); token !== null; token = this.token()) {
      const ply = moves.length;
      if (ply === 1) plies = token.text.endsWith('.');
      const due = plies === true || ply % players === 0;
      const expected = plies === true ? ply + 1 : ply / players + 1;
      if (token.text.endsWith('.')) {
        if (!due || token.text !== `${expected}.`) {
          throw new ParseError(`expected ${due ? `"${expected}."` : 'a move'}, found "${token.text}"`, token.offset);
        }
        const next = this.token();
        if (next === null || next.text.endsWith('.')) {
          throw new ParseError(`a move must follow "${token.text}"`, next?.offset ?? this.at);
        }
        token = next;
      } else if (due) {
        throw new ParseError(`expected "${expected}." before "${token.text}"`, token.offset);
      }
      const mover = moverAt(first, ply, players);
      const move = parseMove(token.text, mover);
      if (move === null) throw new ParseError(`"${token.text}" is not a move`, token.offset);
      const refused = game.play(move);
      if (refused !== null) {
        throw new ParseError(`${token.text} cannot be played at ply ${ply} (${refused})`, token.offset);
      }
      moves.push(move);
    }

    const termination = checkOutcome(game.outcome(), stated, reasonHeader, scoreHeader, resultHeader, players);
    if (isFourRules(rules)) return { rules, first, moves, termination: termination as FourMatchTermination | null, tags };
    return { rules, first: first as Player, moves, termination: termination as MatchTermination | null, tags };
  }

  /** Rules, with R10.9's Players and Teams: a record is four-player when it says `[Players "4"]`. */
  private rules(rules: HeaderValue, players: HeaderValue | undefined, teams: HeaderValue | undefined): GameRules {
    const base = decodeRules(rules.value);
    if (!base.ok) throw new ParseError(`Rules: ${base.message}`, rules.offset);
    if (players?.value !== '4') return base.rules;
    if (teams !== undefined && teams.value !== '2') throw new ParseError('Teams must be "2"', teams.offset);
    const four = validateFourRules({ ...base.rules, players: 4, ...(teams === undefined ? {} : { teams: 2 }) });
    if (!four.ok) throw new ParseError(`Rules: ${four.message}`, rules.offset);
    return four.rules;
  }

  private header(): { key: string; value: HeaderValue } {
    const text = this.text;
    this.at++;
    this.skipBlanks();
    const keyStart = this.at;
    while (this.at < text.length && /[A-Za-z0-9_]/.test(text[this.at]!)) this.at++;
    const key = text.slice(keyStart, this.at);
    if (!KEY.test(key)) throw new ParseError('expected a header name', keyStart);
    this.skipBlanks();
    if (this.peek() !== '"') throw new ParseError('expected " to open the header value', this.at);
    this.at++;
    const valueStart = this.at;
    let value = '';
    for (;;) {
      const c = text[this.at];
      if (c === undefined || c === '\n' || c === '\r') throw new ParseError('header value not closed', this.at);
      this.at++;
      if (c === '"') break;
      if (c === '\\') {
        const escaped = text[this.at];
        if (escaped !== '\\' && escaped !== '"') throw new ParseError('only \\\\ and \\" may be escaped', this.at - 1);
        value += escaped;
        this.at++;
      } else {
        value += c;
      }
    }
    this.skipBlanks();
    if (this.peek() !== ']') throw new ParseError('expected ] to close the header', this.at);
    this.at++;
    this.skipBlanks();
    const end = this.peek();
    if (end !== undefined && end !== '\n' && end !== '\r') throw new ParseError('a header must end its line', this.at);
    return { key, value: { value, offset: valueStart } };
  }

  /** The next move number (`12.`) or move, or null at the end of the text. */
  private token(): { text: string; offset: number } | null {
    this.skipSpace();
    const text = this.text;
    const start = this.at;
    if (start >= text.length) return null;
    while (this.at < text.length && text[this.at]! >= '0' && text[this.at]! <= '9') this.at++;
    const c = text[this.at];
    if (this.at > start && c === '.') {
      this.at++;
      return { text: text.slice(start, this.at), offset: start };
    }
    if (this.at === start + 1 && c !== undefined && directionOfSign(c) !== null) {
      this.at++;
      return { text: text.slice(start, this.at), offset: start };
    }
    throw new ParseError('expected a move number or a move', start);
  }

  private peek(): string | undefined {
    return this.text[this.at];
  }

  private skipSpace(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at++;
  }

  private skipBlanks(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.at++;
  }
}

/** The headers describing the end must agree with what the moves did. */
function checkOutcome(
  ended: RuledOutcome | null,
  stated: StatedResult,
  reason: HeaderValue,
  score: HeaderValue,
  result: HeaderValue,
  players: 2 | 4,
): MatchTermination | FourMatchTermination | null {
  if (ended !== null) {
    if (reason.value !== ended.reason) {
      throw new ParseError(`the moves end the game by ${ended.reason}, not "${reason.value}"`, reason.offset);
    }
    if (score.value !== ended.score) throw new ParseError(`the score is ${ended.score}`, score.offset);
    if (result.value !== ended.result) throw new ParseError(`the result is ${ended.result}`, result.offset);
    return null;
  }
  if (reason.value === '*') {
    if (stated !== '*') throw new ParseError('an unfinished game has Result "*"', result.offset);
    if (score.value !== '*') throw new ParseError('an unfinished game has Score "*"', score.offset);
    return null;
  }
  if ((END_REASONS as readonly string[]).includes(reason.value)) {
    throw new ParseError(`the moves do not end the game by ${reason.value}`, reason.offset);
  }
  if (!TERMINATION_REASON.test(reason.value)) {
    throw new ParseError('Reason must be an end reason, * or lower-case words joined by -', reason.offset);
  }
  if (stated === '*') throw new ParseError(`a game ended by ${reason.value} needs a Result`, result.offset);
  if (score.value !== '*') {
    const scored = players === 4 ? isFourScoreText(score.value) : SCORE.test(score.value);
    const message = scored ? 'only the rules give a score (R5.4)' : `Score must be like ${players === 4 ? '40-30-35-35' : '42-28'} or *`;
    throw new ParseError(message, score.offset);
  }
  return { reason: reason.value, ...stated };
}

function header(key: string, value: string): string {
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new RangeError(`header "${key}" holds a control character`);
  return `[${key} "${value.replace(/[\\"]/g, (c) => `\\${c}`)}"]`;
}

/** R4.1, R10.5: the players move in turn, whatever happens in a turn. */
function moverAt(first: Seat, ply: number, players: 2 | 4): Seat {
  return ((first + ply) % players) as Seat;
}

function locate(text: string, message: string, offset: number): RecordError {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { message, line, column: offset - lineStart + 1, offset };
}
