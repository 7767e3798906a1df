import { sql, type Kysely } from 'kysely';
import IORedis from 'ioredis';
import type { DB } from '@memex/db';

/**
 * Every text, JSON and array column of every table, as one text: what a test searches for
 * something that must not be stored anywhere.
 */
export async function dumpDatabase(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
     where table_schema = 'public' and data_type in ('text', 'character varying', 'json', 'jsonb', 'ARRAY')
     order by table_name, ordinal_position`.execute(db);
  const byTable = new Map<string, string[]>();
  for (const r of rows) byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), r.column_name]);
  const parts: string[] = [];
  for (const [table, columns] of byTable) {
    const values = columns.map((c) => sql`coalesce(${sql.ref(c)}::text, '')`);
    const dumped = await sql<{ row: string }>`
      select concat_ws(E'\\n', ${sql.join(values)}) as row from ${sql.table(table)}`.execute(db);
    parts.push(`## ${table}`, ...dumped.rows.map((r) => r.row));
  }
  return parts.join('\n');
}

/** Every key under a prefix with its value, whatever its type, as one text. */
export async function dumpRedis(url: string, prefix: string): Promise<string> {
  const redis = new IORedis(url, { maxRetriesPerRequest: 3 });
  try {
    const parts: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        const value =
          type === 'string'
            ? await redis.get(key)
            : type === 'hash'
              ? await redis.hgetall(key)
              : type === 'list'
                ? await redis.lrange(key, 0, -1)
                : type === 'set'
                  ? await redis.smembers(key)
                  : type === 'zset'
                    ? await redis.zrange(key, 0, -1)
                    : type === 'stream'
                      ? await redis.xrange(key, '-', '+')
                      : null;
        parts.push(`## ${key} (${type})`, JSON.stringify(value));
      }
    } while (cursor !== '0');
    return parts.join('\n');
  } finally {
    redis.disconnect();
  }
}
