import fp from 'fastify-plugin';
import type { Database } from '../db/database.js';
import { RoomService } from './room-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    rooms: RoomService;
  }
}

export const roomsPlugin = fp<{ db: Database }>(
  async (app, { db }) => {
    app.decorate('rooms', new RoomService(db));
  },
  { name: 'rooms' },
);
