import { ColumnHeads } from '../column-heads';
import { ErrorMessage, PageTitle, Pager, formatDate, useCursorPage } from '../components';
import { useSignedIn } from '../session-context';
import type { Project } from '../types';

/** The admin token acts on one project at a time: this is where it picks it. */
export function ProjectPicker() {
  const { api, chooseProject, credentials } = useSignedIn();
  const { pages, page } = useCursorPage((cursor) =>
    api<{ projects: Project[]; nextCursor: string | null }>('/api/v2/projects', { query: { cursor, limit: 50 } }),
  );
  const current = credentials.kind === 'admin' ? credentials.projectId : undefined;
  return (
    <main id="main">
      <PageTitle>Projects</PageTitle>
      <p>Signed in with the admin token: choose the project to look at.</p>
      <ErrorMessage error={page.error} />
      <table>
        <caption className="visually-hidden">Projects</caption>
        <ColumnHeads columns={['Name', 'Id', 'Created', { num: 'Items' }, { num: 'Sessions' }, { hidden: 'Open' }]} />
        <tbody>
          {page.data?.projects.map((p) => (
            <tr key={p.projectId} aria-current={p.projectId === current ? 'true' : undefined}>
              <td>{p.name}</td>
              <td className="mono">{p.projectId}</td>
              <td>{formatDate(p.createdAt)}</td>
              <td className="num">{p.items.toLocaleString('en')}</td>
              <td className="num">{p.sessions.toLocaleString('en')}</td>
              <td>
                <button type="button" onClick={() => chooseProject({ projectId: p.projectId, name: p.name })}>
                  Open {p.name}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager pages={pages} nextCursor={page.data?.nextCursor} />
    </main>
  );
}
