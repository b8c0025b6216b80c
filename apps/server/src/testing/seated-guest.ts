import type { PlayerService } from '../players/player-service.js';

/** A guest who has sat down somewhere, so has a row: what services below the edges expect of a player. */
export async function seatedGuest(players: PlayerService) {
  const guest = await players.newGuest();
  await players.ensureRow({ player: guest.player, hasRow: false });
  return guest;
}
