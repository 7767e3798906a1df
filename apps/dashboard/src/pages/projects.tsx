import { ErrorMessage, PageTitle, Pager, formatDate, useCursorPages, useLoad } from '../components';
import { useSignedIn } from '../session-context';
import type { Project } from '../types';

/** The admin token acts on one project at a time: this is where it picks it. */
export function ProjectPicker() {
  const { api, chooseProject, credentials } = useSignedIn();
  const pages = useCursorPages();
  const { cursor } = pages;
  const page = useLoad(
    () => api<{ projects: Project[]; nextCursor: string | null }>('/api/v2/projects', { query: { cursor, limit: 50 } }),
    [cursor],
  );
  const current = credentials.kind === 'admin' ? credentials.projectId : undefined;
  return (
    <main id="main">
      <PageTitle>Projects</PageTitle>
      <p>Signed in with the admin token: choose the project to look at.</p>
      <ErrorMessage error={page.error} />
      <table>
        <caption className="visually-hidden">Projects</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Id</th>
            <th scope="col">Created</th>
            <th scope="col" className="num">
              Items
            </th>
            <th scope="col" className="num">
              Sessions
            </th>
            <th scope="col">
              <span className="visually-hidden">Open</span>
            </th>
          </tr>
        </thead>
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
