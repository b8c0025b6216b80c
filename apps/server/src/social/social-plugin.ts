import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { GameServer } from '../realtime/game-server.js';
import { Blocks } from './blocks.js';
import { ChallengeKeeper } from './challenge-keeper.js';
import { ChallengeService } from './challenge-service.js';
import { Follows } from './follows.js';

declare module 'fastify' {
  interface FastifyInstance {
    blocks: Blocks;
    follows: Follows;
    challenges: ChallengeService;
  }
}

/** Open and direct challenges, the blocks that stop them (and quick messages), and the follows a player may take them from alone. */
export const socialPlugin = fp<{ config: Config; db: Database; io: GameServer }>(
  async (app, { config, db, io }) => {
    const blocks = new Blocks(db, config.BLOCKS_PER_PLAYER);
    const follows = new Follows(db, config.FOLLOWS_PER_PLAYER);
    const settings = {
      perPlayer: config.CHALLENGES_PER_PLAYER,
      perAddress: config.CHALLENGES_PER_ADDRESS,
      openPerAddress: config.OPEN_CHALLENGES_PER_ADDRESS,
      toPlayer: config.CHALLENGES_TO_PLAYER,
      toPlayerPerAddress: config.CHALLENGES_TO_PLAYER_PER_ADDRESS,
      ttlMs: config.CHALLENGE_TTL_MS,
      graceMs: config.CHALLENGE_GRACE_MS,
      listed: 100,
    };
    const challenges = new ChallengeService(db, io, blocks, settings);
    const keeper = new ChallengeKeeper(db, io, challenges, app.log, { tickMs: config.CHALLENGE_TICK_MS, graceMs: config.CHALLENGE_GRACE_MS });
    keeper.start();
    app.decorate('blocks', blocks);
    app.decorate('follows', follows);
    app.decorate('challenges', challenges);
    app.addHook('preClose', () => keeper.stop());
  },
  { name: 'social' },
);
