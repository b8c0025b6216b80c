import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { sessionChannel, type GameServer } from '../realtime/game-server.js';
import { AccountClosure } from './account-closure.js';
import { Accounts } from './accounts.js';
import { CostBudgets } from './cost-budgets.js';
import { GuestTokens } from './guest-tokens.js';
import { PlayerService } from './player-service.js';
import { Sessions } from './sessions.js';

declare module 'fastify' {
  interface FastifyInstance {
    players: PlayerService;
    accounts: Accounts;
    closures: AccountClosure;
    /** What a seat, a room or the engine costs a person and an address. */
    costs: CostBudgets;
  }
}

const minute = 60_000;

export const playersPlugin = fp<{ config: Config; db: Database; io: GameServer }>(
  async (app, { config, db, io }) => {
    const ttlMs = config.SESSION_TTL_DAYS * 24 * 3600 * 1000;
    const sessions = new Sessions(db, {
      ttlMs,
      // Through the adapter, so a revoked session's sockets close on every process.
      onRevoked: (ids) => io.in(ids.map(sessionChannel)).disconnectSockets(true),
    });
    const players = new PlayerService(db, sessions, new GuestTokens(db, { secret: config.GUEST_TOKEN_SECRET, ttlMs }));
    app.decorate('players', players);
    app.decorate('accounts', new Accounts(db, sessions, players));
    app.decorate('closures', new AccountClosure(db, sessions));
    app.decorate(
      'costs',
      new CostBudgets(players, app.counters, {
        newPlayersPerAddress: { max: config.RATE_LIMIT_NEW_PLAYERS_PER_ADDRESS_PER_HOUR, windowMs: 60 * minute },
        perAddress: {
          seat: { max: config.RATE_LIMIT_SEATS_PER_ADDRESS_PER_MINUTE, windowMs: minute },
          room: { max: config.RATE_LIMIT_ROOMS_PER_ADDRESS_PER_MINUTE, windowMs: minute },
          challenge: { max: config.RATE_LIMIT_ROOMS_PER_ADDRESS_PER_MINUTE, windowMs: minute },
          engine: { max: config.RATE_LIMIT_ANALYSES_PER_ADDRESS_PER_MINUTE, windowMs: minute },
          puzzle: { max: config.RATE_LIMIT_PUZZLE_MOVES_PER_ADDRESS_PER_MINUTE, windowMs: minute },
          close: { max: config.RATE_LIMIT_ACCOUNT_CLOSES_PER_ADDRESS_PER_HOUR, windowMs: 60 * minute },
        },
        perPerson: {
          seat: { max: config.RATE_LIMIT_SEATS_PER_MINUTE, windowMs: minute },
          challenge: { max: config.RATE_LIMIT_ROOMS_PER_MINUTE, windowMs: minute },
          close: { max: config.RATE_LIMIT_ACCOUNT_CLOSES_PER_HOUR, windowMs: 60 * minute },
        },
      }),
    );
  },
  { name: 'players', dependencies: ['limits'] },
);
