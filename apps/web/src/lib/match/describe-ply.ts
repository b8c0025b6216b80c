import type { PlyEvent } from '@oanquan/rules';
import type { PlayedMove, Seat } from '@oanquan/protocol';
import type { MessageKey } from '../i18n/en.js';
import type { Params } from '../i18n/interpolate.js';
import { rotationOf } from './move-name.js';

type Translate = (key: MessageKey, params?: Params) => string;

/** What a ply captured, in words: "captured a quan and 9 dân"; empty when nothing. */
export function describeCaptures(t: Translate, events: readonly PlyEvent[], prefix: 'say' | 'preview' = 'say'): string {
  const captures = events.filter((e) => e.type === 'capture');
  if (captures.length === 0) return '';
  const dan = captures.reduce((sum, e) => sum + e.dan, 0);
  const quan = captures.filter((e) => e.quan).length;
  if (quan === 0) return t(`${prefix}.captured`, { n: dan });
  return quan === 1 ? t(`${prefix}.capturedQuan`, { n: dan }) : t(`${prefix}.capturedQuans`, { q: quan, n: dan });
}

/**
 * One ply in words, for the game log and screen readers: who sowed which of
 * their squares which way round (the same words on every screen, see
 * move-name.ts), and what it took. `you` is the seat spoken to as "you"
 * (a puzzle's solver), whose sentences take the second person.
 */
export function describePly(
  t: Translate,
  move: PlayedMove,
  events: readonly PlyEvent[],
  names: readonly [string, string],
  you: Seat | null = null,
): string {
  const pickup = events.find((e) => e.type === 'pickup');
  const moved = t(move.seat === you ? 'say.movedYou' : 'say.moved', {
    name: names[move.seat],
    k: move.square - 6 * move.seat,
    n: pickup?.type === 'pickup' ? pickup.count : 0,
    way: t(`say.${rotationOf(move.dir)}`),
  });
  const captured = describeCaptures(t, events);
  const parts = [captured ? `${moved}: ${captured}.` : `${moved}.`];
  for (const e of events) {
    if (e.type === 'refill') parts.push(t(e.player === you ? 'say.refillYou' : 'say.refill', { name: names[e.player], n: e.squares.length }));
    if (e.type === 'end') parts.push(t('say.ended'));
  }
  return parts.join(' ');
}
