import { sql, type Kysely } from 'kysely';

/**
 * Code names found in parts. PostgreSQL's parser keeps `posthog.NewWithConfig`,
 * `.claude/skills/golang/SKILL.md` and `getUserById` as single tokens, so a question naming
 * `posthog`, `skills` or `user` never finds them. `memex_code_words` lists the parts of every
 * identifier and path in a text (split at dots, slashes, colons, underscores, dashes and
 * camelCase), and the search vector indexes them beside the whole names, at the lowest weight.
 * Search splits a query with the same function, so the rule is written once. And indexes for
 * a project's most salient items of one type, and of one session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function memex_code_words(t text) returns text language sql immutable parallel safe as $$
      select coalesce(string_agg(part, ' '), '')
        from regexp_matches(t, '[A-Za-z0-9_]*(?:[./:][A-Za-z0-9_]+|[a-z0-9][A-Z])[A-Za-z0-9_./:-]*', 'g') as m(tok),
             regexp_split_to_table(
               regexp_replace(regexp_replace(tok[1], '([a-z0-9])([A-Z])', '\\1 \\2', 'g'), '([A-Z]+)([A-Z][a-z])', '\\1 \\2', 'g'),
               '[^A-Za-z0-9]+') as part
       where part <> ''
    $$`.execute(db);
  await sql`
    create or replace function memory_items_search_tsv() returns trigger language plpgsql as $$
    begin
      new.search_tsv :=
        setweight(to_tsvector('english', coalesce(new.title, '')), 'A') ||
        setweight(to_tsvector('english', coalesce(new.facts, '')), 'B') ||
        setweight(to_tsvector('english', coalesce(new.rationale, '')), 'C') ||
        setweight(to_tsvector('english', array_to_string(new.tags, ' ') || ' ' ||
          regexp_replace(array_to_string(new.files, ' '), '[/._-]+', ' ', 'g')), 'C') ||
        setweight(to_tsvector('english', memex_code_words(concat_ws(' ', new.title, new.facts, new.rationale))), 'D');
      new.embed_hash := md5(concat_ws(E'\\n', new.title, new.facts, new.rationale,
        array_to_string(new.tags, ' '), array_to_string(new.files, ' ')));
      return new;
    end $$`.execute(db);
  // A context pack reads a project's most salient items of one type (the conventions a "how
  // should I …" question asks for), and of the sessions its best hits come from: top-k by index,
  // however many items a session (`manual`, an import) holds.
  await sql`create index memory_items_project_type_salience_idx on memory_items (project_id, type, salience desc nulls last)`.execute(
    db,
  );
  await sql`create index memory_items_project_session_salience_idx on memory_items (project_id, session_id, salience desc nulls last)`.execute(
    db,
  );
  // Every stored item gets the parts of its names (the trigger recomputes the vector).
  await sql`update memory_items set title = title`.execute(db);
}
