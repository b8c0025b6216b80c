import { defineConfig } from 'prisma/config';

// Only `prisma generate` reads this file here; migrations run through
// apps/server/src/db/migrate-cli.ts (see README, "Database").
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
