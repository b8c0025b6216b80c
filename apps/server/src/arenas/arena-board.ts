import { outcomeFor, rank, tally, type Played, type Tally } from './arena-scoring.js';
import { noShows, type EntrantRow, type GameRow, type Standing } from './arena-standings.js';

/** A counted game of one player, by when it ended (ties by match id, as a rebuild orders them). */
interface Counted extends Played {
  at: number;
}

interface PlayerState {
  counted: Counted[];
  tally: Tally;
  playing: string | null;
  last: { opponent: string; at: number } | null;
  lastEnded: { game: GameRow; seat: 0 | 1; at: number } | null;
}

/** Ended games kept for the page (beside those in play). */
export const RECENT_GAMES = 20;

const emptyTally = tally([]);

/**
 * One arena's standings kept up to date from the games as they start and
 * end, rather than recomputed from every game: a game seen again is not
 * counted twice, a result is placed among its player's games by when it
 * ended, and only a player whose games changed is tallied again. Ranking
 * waits for the next read of the standings, once per change. The same
 * rows in any order of arrival give what standingsOf gives from them all.
 */
export class ArenaBoard<G extends GameRow = GameRow> {
  private entrants = new Map<string, EntrantRow>();
  private readonly players = new Map<string, PlayerState>();
  private readonly counted = new Set<string>();
  private readonly live = new Map<string, G>();
  private recent: G[] = [];
  /** The latest creation seen, from which the next read of new games starts. */
  private newest = 0;
  /** Games seen, by when they were made, while they are within the margin the next read looks back over. */
  private readonly made = new Map<string, number>();
  private ranked: Standing[] | null = null;
  private index: Map<string, Standing> | null = null;
  /** Counted with each ranking, so a reader's line says why they wait without going over every entrant. */
  private counts: { active: number; free: number } = { active: 0, free: 0 };
  /** When the entrants were last read whole, and last read at all (the clock their rows are written with, in ms). */
  private entrantsWholeAt = -Infinity;
  private entrantsAt = -Infinity;

  setEntrants(entrants: readonly EntrantRow[]): this {
    this.entrants = new Map(entrants.map((entrant) => [entrant.playerId, entrant]));
    this.ranked = null;
    return this;
  }

  /**
   * From when the next read of the entrants must fetch those who joined or
   * paused (less a margin for clocks and commits), or null to read them
   * whole: the first time, and every `wholeMs` for what no join or pause
   * marks (a rename, a row gone with its player).
   */
  entrantsSince(now: number, wholeMs: number, marginMs: number): Date | null {
    return now - this.entrantsWholeAt >= wholeMs ? null : new Date(this.entrantsAt - marginMs);
  }

  /** The entrants read at `at`: all of them (`since` null) or those changed since `since`. */
  readEntrants(entrants: readonly EntrantRow[], since: Date | null, at: number): this {
    if (since === null) {
      this.setEntrants(entrants);
      this.entrantsWholeAt = at;
    } else {
      for (const entrant of entrants) this.setEntrant(entrant);
    }
    this.entrantsAt = at;
    return this;
  }

  /** One entrant joined or came back: seen here before the rows are read again. */
  setEntrant(entrant: EntrantRow): void {
    this.entrants.set(entrant.playerId, entrant);
    this.ranked = null;
  }

  /** Who stays out of pairing until they join again; the rows say so once committed. */
  pause(playerIds: readonly string[]): void {
    for (const id of playerIds) {
      const entrant = this.entrants.get(id);
      if (entrant) this.entrants.set(id, { ...entrant, active: false });
    }
    this.ranked = null;
  }

  /** Games new or changed since the last call; games already counted are passed over. */
  apply(games: readonly G[]): this {
    const ordered = [...games].sort((a, b) => orderOf(a) - orderOf(b) || (a.matchId < b.matchId ? -1 : 1));
    for (const game of ordered) this.applyOne(game);
    return this;
  }

  private applyOne(game: G): void {
    if (this.counted.has(game.matchId)) return;
    this.newest = Math.max(this.newest, game.createdAt.getTime());
    this.made.set(game.matchId, game.createdAt.getTime());
    const seats = [game.player0Id, game.player1Id] as const;
    const at = game.createdAt.getTime();
    seats.forEach((playerId, seat) => {
      const state = this.stateOf(playerId);
      if ((state.last?.at ?? -Infinity) <= at) state.last = { opponent: seats[1 - seat]!, at };
      if (!game.ended) state.playing = game.matchId;
      else if (state.playing === game.matchId) state.playing = null;
    });
    this.ranked = null;
    if (!game.ended) {
      this.live.set(game.matchId, game);
      return;
    }
    this.live.delete(game.matchId);
    this.counted.add(game.matchId);
    const ended = orderOf(game);
    seats.forEach((playerId, seat) => {
      const state = this.stateOf(playerId);
      if (!state.lastEnded || before(state.lastEnded, ended, state.lastEnded.game.matchId, game.matchId)) {
        state.lastEnded = { game, seat: seat as 0 | 1, at: ended };
      }
      const outcome = outcomeFor(seat as 0 | 1, game);
      if (outcome === null) return;
      state.counted.push({ matchId: game.matchId, outcome, at: ended });
      // Nearly always already in order: a result that commits late is put back where it ended.
      state.counted.sort((a, b) => a.at - b.at || (a.matchId < b.matchId ? -1 : 1));
      state.tally = tally(state.counted);
    });
    if (game.endReason !== 'abort') {
      this.recent = [game, ...this.recent].sort((a, b) => orderOf(b) - orderOf(a)).slice(0, RECENT_GAMES);
    }
  }

  private stateOf(playerId: string): PlayerState {
    let state = this.players.get(playerId);
    if (!state) this.players.set(playerId, (state = { counted: [], tally: emptyTally, playing: null, last: null, lastEnded: null }));
    return state;
  }

  /** Every entrant ranked; made again only after a change. */
  standings(): Standing[] {
    if (this.ranked) return this.ranked;
    this.ranked = rank(
      [...this.entrants.values()].map((entrant) => {
        const state = this.players.get(entrant.playerId);
        const ended = state?.lastEnded;
        const noShow = entrant.active && !!ended && ended.game.endedAt! > entrant.activeSince && noShows(ended.game).includes(ended.seat);
        const lastEndedAt = ended?.at ?? null;
        return { ...entrant, ...(state?.tally ?? emptyTally), playing: state?.playing ?? null, lastOpponent: state?.last?.opponent ?? null, lastEndedAt, noShow };
      }),
    );
    this.index = null;
    const active = this.ranked.filter((s) => s.active && !s.noShow);
    this.counts = { active: active.length, free: active.filter((s) => s.playing === null).length };
    return this.ranked;
  }

  /** How many entrants are active, and how many of them are not in a game. */
  readiness(): { active: number; free: number } {
    this.standings();
    return this.counts;
  }

  standingOf(playerId: string): Standing | null {
    const ranked = this.standings();
    this.index ??= new Map(ranked.map((s) => [s.playerId, s]));
    return this.index.get(playerId) ?? null;
  }

  /** The games in play now, and the latest ended ones, newest first. */
  games(): { live: G[]; recent: G[] } {
    return { live: [...this.live.values()], recent: this.recent };
  }

  gameOf(matchId: string): G | undefined {
    return this.live.get(matchId);
  }

  /**
   * What the next read of the rows must fetch: the games made since the
   * newest seen (less a margin for clocks and commits) but for those
   * already seen, and which of the games in play have ended.
   */
  pending(marginMs: number): { since: Date; seen: string[]; live: string[] } {
    const since = this.newest === 0 ? 0 : this.newest - marginMs;
    for (const [matchId, at] of this.made) if (at < since) this.made.delete(matchId);
    return { since: new Date(since), seen: [...this.made.keys()], live: [...this.live.keys()] };
  }
}

function orderOf(game: GameRow): number {
  return (game.endedAt ?? game.createdAt).getTime();
}

function before(last: { at: number }, at: number, lastId: string, id: string): boolean {
  return last.at < at || (last.at === at && lastId < id);
}

/**
 * Every entrant's standing from the rows alone. Games count in the order
 * they ended; a game still in play counts once it ends, even after the
 * arena's time is up.
 */
export function standingsOf(entrants: readonly EntrantRow[], games: readonly GameRow[]): Standing[] {
  return new ArenaBoard().setEntrants(entrants).apply(games).standings();
}
