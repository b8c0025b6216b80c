import type { ArenaSummary, ArenaWait } from '@oanquan/protocol';
import type { I18n } from '../i18n/i18n.svelte.js';

export function arenaName(i18n: I18n, arena: Pick<ArenaSummary, 'kind' | 'pool'>): string {
  return i18n.t(`arena.kind.${arena.kind}`, { pool: arena.pool });
}

/** Whole seconds, as m:ss or from an hour h:mm:ss: an arena's countdown can be hours long. */
export function countdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** "starts in 12:30", "20:14 left", "finished", at `now` on the server's clock. */
export function arenaTime(i18n: I18n, arena: Pick<ArenaSummary, 'phase' | 'startsAt' | 'endsAt'>, now: number): string {
  if (arena.phase === 'finished') return i18n.t('arena.finished');
  if (now < Date.parse(arena.startsAt)) return i18n.t('arena.startsIn', { time: countdown(Date.parse(arena.startsAt) - now) });
  if (now < Date.parse(arena.endsAt)) return i18n.t('arena.timeLeft', { time: countdown(Date.parse(arena.endsAt) - now) });
  return i18n.t('arena.ending');
}

/** Why this player waits for a game (the arena's `waiting`): a rematch counts down, then the next tick pairs them. */
export function waitText(i18n: I18n, wait: ArenaWait, now: number): string {
  if (wait.reason !== 'rematch') return i18n.t(`arena.wait.${wait.reason}`);
  const left = Date.parse(wait.at) - now;
  return left > 0 ? i18n.t('arena.wait.rematch', { name: wait.opponent, time: countdown(left) }) : i18n.t('arena.wait.pairing');
}
