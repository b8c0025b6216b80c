/**
 * The attacker of bot-attack.bench.ts, in a process of its own so that its
 * hundreds of sockets do not sit in the event loop that times people's acks:
 * ATTACK_GUESTS guests from ATTACKER_ADDRESS each ask ATTACK_URL for
 * GAMES_EACH games against the computer and play those let through at full
 * speed, starting a new one whenever one ends, until it is stopped. It writes
 * JSON lines to stdout: first what was let through and refused, then every
 * 500 ms its games being played, its moves so far and its failures.
 */
import { PRESETS } from '@oanquan/rules';
import type { RoomResponse } from '@oanquan/protocol';
import { HumanSide } from '../src/testing/human-side.js';
import { newGuest } from '../src/testing/live.js';
import { botGame, startGame } from './bot-game-client.js';

const url = process.env.ATTACK_URL!;
const address = process.env.ATTACKER_ADDRESS!;
const guestCount = Number(process.env.ATTACK_GUESTS);
const gamesEach = Number(process.env.GAMES_EACH);

const until = () => false;
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const refused = new Map<string, number>();
let running = 0;
let moves = 0;
const errors: string[] = [];
const guests = await Promise.all(Array.from({ length: guestCount }, () => newGuest(url)));
const asks = guests.flatMap((guest) => Array.from({ length: gamesEach }, () => guest));
const admitted: Array<{ token: string; room: RoomResponse }> = [];
for (const guest of asks) {
  const outcome = await startGame(url, guest.token, address);
  if (outcome.room) admitted.push({ token: guest.token, room: outcome.room });
  else refused.set(outcome.refused!, (refused.get(outcome.refused!) ?? 0) + 1);
}
say({ admitted: admitted.length, refused: Object.fromEntries(refused) });
setInterval(() => say({ running, moves, errors: errors.length, sample: [...new Set(errors)].slice(0, 3) }), 500);

await Promise.all(
  admitted.map(async ({ token, room: first }) => {
    let room: RoomResponse | undefined = first;
    while (!until()) {
      try {
        const game = await botGame(url, { token }, address, room);
        running++;
        const human = new HumanSide(game.client, game.room.matchId, game.seat, { seed: moves });
        while (!until() && !human.ended()) {
          // Counted after the await: `moves += await …` would add to the count as it was before, losing the others' moves.
          const made = await human.playUntilEnd(PRESETS.classic, 1, 120_000, 0);
          moves += made;
        }
        running--;
        game.client.close();
      } catch (error) {
        if (!until()) errors.push(error instanceof Error ? error.message : String(error));
      }
      // The game is over: the same person starts another as soon as the caps let them.
      room = undefined;
      while (!until() && !room) {
        const next = await startGame(url, token, address);
        room = next.room;
        if (!room) await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }),
);
process.exit(0);
