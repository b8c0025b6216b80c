// R6 Rule options as a short stable string, for storage, the wire and the
// `Rules` header of a game record (R7.2): every option, always in the same
// order, e.g. `qv=10,qn=0,gap=0,end=squares,skip=0,limit=400`. R6 asks
// records to keep the full option set, so decoding accepts nothing less.

import { validateRules, type EndWhen, type RuleOptions, type RulesValidation } from './rule-options.js';

const END_CODES: Readonly<Record<EndWhen, string>> = Object.freeze({
  'quan-squares-empty': 'squares',
  'quan-pieces-captured': 'pieces',
});

export function encodeRules(rules: RuleOptions): string {
  return [
    `qv=${rules.quanValue}`,
    `qn=${rules.quanNon}`,
    `gap=${rules.emptyQuanIsGap ? 1 : 0}`,
    `end=${END_CODES[rules.endWhen]}`,
    `skip=${rules.skipOrigin ? 1 : 0}`,
    `limit=${rules.plyLimit}`,
  ].join(',');
}

const NUMBER = /^(0|[1-9][0-9]{0,5})$/;

export function decodeRules(text: string): RulesValidation {
  const fields = new Map<string, string>();
  for (const field of text.split(',')) {
    const eq = field.indexOf('=');
    if (eq <= 0) return { ok: false, message: `"${field}" is not key=value` };
    const key = field.slice(0, eq);
    if (fields.has(key)) return { ok: false, message: `"${key}" given twice` };
    fields.set(key, field.slice(eq + 1));
  }
  const options: Record<string, unknown> = {};
  const take = (key: string): string | undefined => {
    const value = fields.get(key);
    fields.delete(key);
    return value;
  };
  const number = (key: string, option: keyof RuleOptions): string | null => {
    const value = take(key);
    if (value === undefined) return `"${key}" missing`;
    if (!NUMBER.test(value)) return `"${key}" must be a number`;
    options[option] = Number(value);
    return null;
  };
  const flag = (key: string, option: keyof RuleOptions): string | null => {
    const value = take(key);
    if (value === undefined) return `"${key}" missing`;
    if (value !== '0' && value !== '1') return `"${key}" must be 0 or 1`;
    options[option] = value === '1';
    return null;
  };
  const problem =
    number('qv', 'quanValue') ??
    number('qn', 'quanNon') ??
    flag('gap', 'emptyQuanIsGap') ??
    flag('skip', 'skipOrigin') ??
    number('limit', 'plyLimit');
  if (problem !== null) return { ok: false, message: problem };
  const end = take('end');
  if (end === undefined) return { ok: false, message: '"end" missing' };
  const endWhen = (Object.keys(END_CODES) as EndWhen[]).find((when) => END_CODES[when] === end);
  if (endWhen === undefined) return { ok: false, message: '"end" must be squares or pieces' };
  options.endWhen = endWhen;
  const [unknown] = fields.keys();
  if (unknown !== undefined) return { ok: false, message: `unknown rule option "${unknown}"` };
  return validateRules(options);
}
