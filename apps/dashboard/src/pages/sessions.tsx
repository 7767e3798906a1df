import { ColumnHeads } from '../column-heads';
import { ErrorMessage, PageTitle, Pager, formatDate, useCursorPage } from '../components';
import { Link } from '../router';
import { useSignedIn } from '../session-context';
import type { Session } from '../types';

/** The project's sessions, newest first, a page at a time, each with the items it produced. */
export function SessionsPage() {
  const { api } = useSignedIn();
  const { pages, page } = useCursorPage((cursor) =>
    api<{ sessions: Session[]; nextCursor: string | null }>('/api/v2/sessions', { query: { cursor, limit: 25 } }),
  );
  return (
    <main id="main">
      <PageTitle>Sessions</PageTitle>
      <ErrorMessage error={page.error} />
      <table>
        <caption className="visually-hidden">Sessions</caption>
        <ColumnHeads
          columns={[
            'Session',
            'Branch',
            'Started',
            'Last event',
            { num: 'Events' },
            { num: 'Items' },
            'Status',
            'Enrichment',
          ]}
        />
        <tbody>
          {page.data?.sessions.map((s) => (
            <tr key={s.id}>
              <td className="mono">
                <Link to={`/sessions/${s.id}`}>{s.externalId}</Link>
              </td>
              <td>{s.branch ?? '—'}</td>
              <td>{formatDate(s.createdAt)}</td>
              <td>{formatDate(s.lastEventAt)}</td>
              <td className="num">{s.eventCount.toLocaleString('en')}</td>
              <td className="num">{s.itemCount > 0 ? <Link to={`/sessions/${s.id}`}>{s.itemCount}</Link> : 0}</td>
              <td>{s.status}</td>
              <td>{s.enrichmentPending ? 'pending' : 'caught up'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {page.loading ? <p>Loading…</p> : null}
      {page.data?.sessions.length === 0 ? <p>No session has been captured yet.</p> : null}
      <Pager pages={pages} nextCursor={page.data?.nextCursor} />
    </main>
  );
}
