import { sql, type Kysely } from 'kysely';

/**
 * Announces every change of a project's memory revision on the `memex_memory_revision`
 * channel (after commit, as PostgreSQL delivers notifications), so brain servers can keep
 * revisions in memory instead of reading them for every revalidation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function projects_notify_revision() returns trigger language plpgsql as $$
    begin
      perform pg_notify('memex_memory_revision', new.id || ':' || new.memory_revision);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger projects_notify_revision after update of memory_revision on projects
    for each row when (new.memory_revision is distinct from old.memory_revision)
    execute function projects_notify_revision()`.execute(db);
}
