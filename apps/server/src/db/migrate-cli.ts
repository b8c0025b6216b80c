import { loadConfig, paths } from '../config.js';
import { openDatabase, targetFromConfig } from './database.js';
import { createMigration } from './migration-create.js';

/**
 * `pnpm db:migrate` applies pending migrations to the configured database
 * (DATABASE_URL, or the embedded one). `pnpm db:migrate:create <name>` writes
 * a new migration from prisma/schema.prisma. Neither needs Prisma's native
 * engine, which cannot be downloaded everywhere.
 */
const [command, name] = process.argv.slice(2);

if (command === 'apply') {
  const config = loadConfig();
  const db = await openDatabase(targetFromConfig(config), { migrationsDir: paths.migrations, log: console.log });
  console.log(
    `${db.kind}: ${db.migrations?.applied.length ?? 0} applied, ${db.migrations?.alreadyApplied.length ?? 0} already applied`,
  );
  await db.close();
} else if (command === 'create' && name) {
  const result = await createMigration({ schemaPath: paths.schema, migrationsDir: paths.migrations, name });
  console.log(result.created ? `wrote ${result.dir}` : 'the schema matches the migrations: nothing to write');
} else {
  console.error('usage: migrate-cli apply | migrate-cli create <name>');
  process.exit(2);
}
