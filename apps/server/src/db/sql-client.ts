/**
 * The little SQL surface that migrations need. Both a PGlite instance and a
 * node-postgres client satisfy it, so one migrator serves both databases.
 */
export interface SqlClient {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  /** Runs a script of several statements. */
  exec(script: string): Promise<unknown>;
}

/** node-postgres' `query` is typed loosely; the migrator only reads rows it wrote. */
export function pgSqlClient(client: { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }> }): SqlClient {
  return {
    query: async <Row>(sql: string, params?: unknown[]) => (await client.query(sql, params)) as { rows: Row[] },
    exec: (script) => client.query(script),
  };
}
