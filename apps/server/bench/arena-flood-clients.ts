/**
 * The arena flood's clients, in a process of their own (see arena-flood.ts),
 * so that their requests do not delay the event loop that times people's
 * acks: FLOOD_JOINERS guests, then on "go" on stdin FLOOD_READERS of them
 * read pages FLOOD_READS_PER_SECOND times a second each while the crowd
 * joins over 14 s, then joins and pauses FLOOD_ENTRIES_PER_SECOND times a
 * second; "pause" holds it until the next "go" (and says so as a line); on
 * "stop", prints how it was answered (by status) as one line.
 */
import { createInterface } from 'node:readline';
import { ARENA_PAGE_SIZE } from '@oanquan/protocol';
import { newGuest } from '../src/testing/live.js';

const url = process.env.FLOOD_URL!;
const code = process.env.FLOOD_CODE!;
const address = process.env.FLOOD_ADDRESS!;
const readers = Number(process.env.FLOOD_READERS);
const readsPerSecond = Number(process.env.FLOOD_READS_PER_SECOND);
const entriesPerSecond = Number(process.env.FLOOD_ENTRIES_PER_SECOND);
const guests = await Promise.all(Array.from({ length: Number(process.env.FLOOD_JOINERS) }, () => newGuest(url)));

const answered: Record<string, number> = {};
let flooding = true;
let paused = false;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits while paused (between the bench's flooded blocks). */
const resumed = async () => {
  while (paused && flooding) await sleep(10);
};
const send = async (what: string, path: string, token: string, method = 'GET') => {
  const response = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': address } }).catch(() => null);
  const key = `${what} ${response?.status ?? 'failed'}`;
  answered[key] = (answered[key] ?? 0) + 1;
  await response?.arrayBuffer();
};

async function flood(): Promise<void> {
  const pages = Math.ceil(guests.length / ARENA_PAGE_SIZE);
  const reading = guests.slice(0, readers).map(async (guest, i) => {
    for (let n = 0; flooding; n++) {
      await resumed();
      void send('read', `/api/arenas/${code}?page=${1 + ((i + n) % pages)}`, guest.token);
      await sleep(1000 / readsPerSecond);
    }
  });
  for (let i = 0; flooding && i < guests.length; i++) {
    await resumed();
    void send('join', `/api/arenas/${code}/join`, guests[i]!.token, 'POST');
    await sleep(14_000 / guests.length);
  }
  for (let n = 0; flooding; n++) {
    await resumed();
    const action = n % 2 === 0 ? 'pause' : 'join';
    void send(action, `/api/arenas/${code}/${action}`, guests[n % guests.length]!.token, 'POST');
    await sleep(1000 / entriesPerSecond);
  }
  await Promise.all(reading);
}

console.log(JSON.stringify({ ready: true }));
const lines = createInterface({ input: process.stdin });
let flooded: Promise<void> | undefined;
lines.on('line', (line) => {
  if (line === 'go') {
    paused = false;
    flooded ??= flood();
  }
  if (line === 'pause') {
    paused = true;
    console.log(JSON.stringify({ paused: true }));
  }
  if (line === 'stop') {
    flooding = false;
    void (flooded ?? Promise.resolve()).then(() => {
      console.log(JSON.stringify({ answered }));
      process.exit(0);
    });
  }
});
