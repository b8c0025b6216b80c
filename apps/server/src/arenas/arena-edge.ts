import type { ArenaView } from '@oanquan/protocol';
import { playerChannel, type GameServer, type GameSocket } from '../realtime/game-server.js';
import type { ArenaAnnouncer } from './arena-director.js';
import type { ArenaLimits } from './arena-limits.js';
import type { ArenaService } from './arena-service.js';

/** Everyone watching one arena's page, on every node. */
export const arenaChannel = (code: string) => `arena:${code}`;

/** Pairings go to the player wherever they are connected; standings to the arena's spectators (through the Redis adapter across nodes). */
export function socketAnnouncer(io: GameServer): ArenaAnnouncer {
  return {
    paired: (arena, playerId, roomCode, matchId) => io.to(playerChannel(playerId)).emit('arena:paired', { arena, roomCode, matchId }),
    standings: (view) => io.to(arenaChannel(view.code)).emit('arena:standings', view),
  };
}

/** `arena:watch`: a read like any other (budgeted); subscribe first, then read, so no update in between is missed. */
export async function watchArena(
  { arenas, arenaLimits }: { arenas: ArenaService; arenaLimits: ArenaLimits },
  socket: GameSocket,
  code: string,
  page = 1,
): Promise<{ ok: true; arena: ArenaView }> {
  const reader = socket.data.player.id;
  await arenaLimits.take('read', reader, socket.data.address);
  await socket.join(arenaChannel(code));
  try {
    return { ok: true, arena: await arenas.view(code, page, reader) };
  } catch (error) {
    await socket.leave(arenaChannel(code));
    throw error;
  }
}

export async function unwatchArena(socket: GameSocket, code: string): Promise<{ ok: true }> {
  await socket.leave(arenaChannel(code));
  return { ok: true };
}
