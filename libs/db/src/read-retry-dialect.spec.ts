import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import { onlyReads } from './read-retry-dialect';

/** Kysely that compiles and never connects: what the driver would be given. */
const db = new Kysely<{ projects: { id: string; name: string } }>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('onlyReads', () => {
  it.each([
    ['a SELECT built with Kysely', db.selectFrom('projects').select('id').compile()],
    ['raw select', sql`select 1`.compile(db)],
    ['raw select in parentheses with a union', sql`(select 1) union all (select 2)`.compile(db)],
    ['raw CTEs ending in a select', sql`with raw(t) as (select 1) select t from raw`.compile(db)],
    ['a column named like a verb', sql`select updated_at, deleted from projects`.compile(db)],
  ])('%s only reads', (_, query) => {
    expect(onlyReads(query)).toBe(true);
  });

  it.each([
    ['an INSERT built with Kysely', db.insertInto('projects').values({ id: 'p', name: 'n' }).compile()],
    ['an UPDATE built with Kysely', db.updateTable('projects').set({ name: 'n' }).compile()],
    ['a DELETE built with Kysely', db.deleteFrom('projects').compile()],
    ['a CTE that inserts', sql`with n as (select 1) insert into projects select * from n`.compile(db)],
    [
      'a select feeding an update',
      sql`with x as (update projects set name = 'n' returning id) select id from x`.compile(db),
    ],
    ['a select feeding a delete', sql`with x as (delete from projects returning id) select id from x`.compile(db)],
    ['raw insert', sql`insert into projects (id, name) values ('p', 'n')`.compile(db)],
    ['a statement of another kind', CompiledQuery.raw('vacuum projects')],
  ])('%s does not', (_, query) => {
    expect(onlyReads(query)).toBe(false);
  });
});
