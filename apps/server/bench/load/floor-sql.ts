/** The floor's one statement per move: compare-and-set the version, insert the move and its event. */
export const commitMoveSql = `
  WITH m AS (UPDATE floor_match SET version = version + 1 WHERE id = $1 AND version = $2 RETURNING version),
       mv AS (INSERT INTO floor_move SELECT $1, m.version, $3, $4, $5 FROM m),
       ev AS (INSERT INTO floor_event SELECT $1, m.version, $6::jsonb FROM m)
  SELECT version FROM m`;
