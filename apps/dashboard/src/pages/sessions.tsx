import { ErrorMessage, PageTitle, Pager, formatDate, useCursorPages, useLoad } from '../components';
import { Link } from '../router';
import { useSignedIn } from '../session-context';
import type { Session } from '../types';

/** The project's sessions, newest first, a page at a time, each with the items it produced. */
export function SessionsPage() {
  const { api } = useSignedIn();
  const pages = useCursorPages();
  const { cursor } = pages;
  const page = useLoad(
    () => api<{ sessions: Session[]; nextCursor: string | null }>('/api/v2/sessions', { query: { cursor, limit: 25 } }),
    [cursor],
  );
  return (
    <main id="main">
      <PageTitle>Sessions</PageTitle>
      <ErrorMessage error={page.error} />
      <table>
        <caption className="visually-hidden">Sessions</caption>
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Branch</th>
            <th scope="col">Started</th>
            <th scope="col">Last event</th>
            <th scope="col" className="num">
              Events
            </th>
            <th scope="col" className="num">
              Items
            </th>
            <th scope="col">Status</th>
            <th scope="col">Enrichment</th>
          </tr>
        </thead>
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
