import type { PlyEvent } from '@oanquan/rules';
import type { PlayedMove } from '@oanquan/protocol';
import type { MessageKey } from '../i18n/en.js';
import type { Params } from '../i18n/interpolate.js';

type Translate = (key: MessageKey, params?: Params) => string;

/** One ply in words, for screen readers: who sowed what, which way, and what it took. */
export function describePly(t: Translate, move: PlayedMove, events: readonly PlyEvent[], names: readonly [string, string]): string {
  const pickup = events.find((e) => e.type === 'pickup');
  const parts = [
    t('say.moved', {
      name: names[move.seat],
      notation: move.notation,
      k: move.square - 6 * move.seat,
      n: pickup?.type === 'pickup' ? pickup.count : 0,
      side: t(move.dir === 1 ? 'say.right' : 'say.left'),
    }),
  ];
  const captures = events.filter((e) => e.type === 'capture');
  const dan = captures.reduce((sum, e) => sum + e.dan, 0);
  if (captures.some((e) => e.quan)) parts.push(t('say.capturedQuan', { n: dan }));
  else if (captures.length > 0) parts.push(t('say.captured', { n: dan }));
  for (const e of events) {
    if (e.type === 'refill') parts.push(t('say.refill', { name: names[e.player], n: e.squares.length }));
    if (e.type === 'end') parts.push(t('say.ended'));
  }
  return parts.join(' ');
}
