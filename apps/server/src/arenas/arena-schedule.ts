import type { QueuePool } from '@oanquan/protocol';

export interface Scheduled {
  schedule: 'hourly' | 'daily';
  pool: QueuePool;
  startsAt: Date;
  endsAt: Date;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** 20:00 in Vietnam (UTC+7, no daylight saving) is 13:00 UTC. */
const DAILY_START_UTC = 13 * HOUR;

/**
 * The arenas the server keeps on its schedule: a 3+2 every hour on the hour
 * for 30 minutes, and a 10+5 every evening at 20:00 Vietnam time for an
 * hour. Those running now and the next ones, so the home page can count down.
 */
export function scheduledAround(now: Date): Scheduled[] {
  const t = now.getTime();
  const hour = Math.floor(t / HOUR) * HOUR;
  const hourly = [hour, hour + HOUR]
    .map((start) => ({ schedule: 'hourly' as const, pool: '3+2' as const, startsAt: new Date(start), endsAt: new Date(start + 30 * MINUTE) }))
    .filter((arena) => arena.endsAt.getTime() > t);
  const today = Math.floor(t / DAY) * DAY + DAILY_START_UTC;
  const dailyStart = today + HOUR > t ? today : today + DAY;
  return [...hourly, { schedule: 'daily', pool: '10+5', startsAt: new Date(dailyStart), endsAt: new Date(dailyStart + HOUR) }];
}
