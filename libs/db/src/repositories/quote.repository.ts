import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema';
import { KYSELY } from '../tokens';

/** A quote found verbatim (whitespace folded) in an event the project stored. */
export interface FoundQuote {
  quote: string;
  eventId: string;
  /** The internal id of the session the event belongs to. */
  sessionId: string;
}

/** How far back an assistant's quotes are looked for: its own recent sessions. */
const SESSIONS = 3;
const EVENTS_PER_SESSION = 2000;

/** Finds quotes in the events of a project's most recent sessions, as evidence is checked everywhere. */
@Injectable()
export class QuoteRepository {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  /** Each quote (whitespace already folded) with the newest recent event that holds it; quotes not found are left out. */
  async find(projectId: string, quotes: readonly string[]): Promise<FoundQuote[]> {
    if (quotes.length === 0) return [];
    const { rows } = await sql<{ quote: string; event_id: string; session_id: string }>`
      with recent as (
        select id from sessions where project_id = ${projectId} order by last_event_at desc limit ${SESSIONS}
      ), events as (
        select e.event_id, e.session_id, e.seq, regexp_replace(e.content, '\\s+', ' ', 'g') as content
          from recent r
          cross join lateral (
            select event_id, session_id, seq, content from raw_events
             where session_id = r.id order by seq desc limit ${EVENTS_PER_SESSION}
          ) e
      )
      select q.quote, f.event_id, f.session_id
        from unnest(${sql.val([...quotes])}::text[]) as q(quote)
        join lateral (
          select event_id, session_id from events where strpos(content, q.quote) > 0 order by seq desc limit 1
        ) f on true`.execute(this.db);
    return rows.map((r) => ({ quote: r.quote, eventId: r.event_id, sessionId: r.session_id }));
  }
}
