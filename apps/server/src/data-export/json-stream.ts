/** A list read a page at a time, so that it is never held whole. */
export class Pages {
  constructor(readonly pages: AsyncIterable<readonly unknown[]>) {}
}

/** Where a row stands in a list ordered by time, then by an id: the key of a keyset page. */
export interface RowKey {
  at: Date;
  id: string;
}

/** Reads `take` rows after the key (from the start without one). */
export type PageRead<Row> = (after: RowKey | undefined, take: number) => Promise<Row[]>;

/** Reads page after page until a short one: each read starts after the last row of the one before (keyset, never OFFSET). */
export async function* keysetPages<Row>(pageSize: number, read: PageRead<Row>, key: (row: Row) => RowKey): AsyncGenerator<Row[]> {
  let after: RowKey | undefined;
  for (;;) {
    const rows = await read(after, pageSize);
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    after = key(rows.at(-1)!);
  }
}

/** Rows strictly after the key in the order (`at`, `id`), for a keyset page's where clause; every row before the first page. */
export function afterKey(at: string, id: string, after: RowKey | undefined): object {
  return after ? { OR: [{ [at]: { gt: after.at } }, { [at]: after.at, [id]: { gt: after.id } }] } : {};
}

/** A field's value: as it is, read when the document reaches it, or a list read a page at a time. */
export type Field = readonly [string, unknown];

/**
 * One JSON object written a piece at a time: plain values at once, a
 * function's answer when the document reaches it, Pages as arrays, one page
 * per piece. Pulled by whoever reads it (the response
 * stream), so a slow reader holds one page at most and nothing at all of
 * the database between pages.
 */
export async function* jsonObject(fields: readonly Field[]): AsyncGenerator<string> {
  let separator = '{';
  for (const [name, value] of fields) {
    yield `${separator}${JSON.stringify(name)}:`;
    separator = ',';
    if (value instanceof Pages) yield* jsonArray(value);
    else yield JSON.stringify(typeof value === 'function' ? await value() : value);
  }
  yield separator === '{' ? '{}' : '}';
}

async function* jsonArray({ pages }: Pages): AsyncGenerator<string> {
  let separator = '[';
  for await (const page of pages) {
    if (page.length === 0) continue;
    yield separator + page.map((item) => JSON.stringify(item)).join(',');
    separator = ',';
  }
  yield separator === '[' ? '[]' : ']';
}
