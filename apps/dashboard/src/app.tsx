import { useMemo, useState } from 'react';
import { loadCredentials, saveCredentials, type Credentials } from './credentials';
import { Link, navigate, useLocation } from './router';
import { SignedInContext, bind, type SignedIn } from './session-context';
import { BrainPage } from './pages/brain';
import { HealthPage } from './pages/health';
import { ItemPage } from './pages/item';
import { NewItemPage } from './pages/item-form';
import { ItemsPage } from './pages/items';
import { ProjectPicker } from './pages/projects';
import { ReviewPage } from './pages/review';
import { SessionsPage } from './pages/sessions';
import { SignIn } from './pages/sign-in';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

function Page({ path, isAdmin }: { path: string; isAdmin: boolean }) {
  const [, section, id] = path.split('/');
  switch (section) {
    case '':
    case 'brain':
      return <BrainPage />;
    case 'items':
      if (id === 'new') return <NewItemPage />;
      if (id && ULID.test(id)) return <ItemPage key={id} itemId={id} />;
      return <ItemsPage />;
    case 'sessions':
      if (id && ULID.test(id)) return <ItemsPage key={id} sessionId={id} />;
      return <SessionsPage />;
    case 'review':
      return <ReviewPage />;
    case 'health':
    case 'projects':
      if (isAdmin) return section === 'health' ? <HealthPage /> : <ProjectPicker />;
      return <NeedsAdminToken what={section === 'health' ? 'Health' : 'Projects'} />;
  }
  return (
    <main id="main">
      <h1>Not found</h1>
      <p>
        Nothing here. <Link to="/brain">Back to the brain</Link>.
      </p>
    </main>
  );
}

/** An operator's page opened with a project key: say what opens it, rather than "not found". */
function NeedsAdminToken({ what }: { what: string }) {
  return (
    <main id="main">
      <h1>{what} needs the admin token</h1>
      <p>
        You are signed in with a project key, which opens one project's memory. {what} is for operators: sign out and
        sign in with the admin token (<code>MEMEX_ADMIN_TOKEN</code>; an embedded <code>npm start</code> keeps one in{' '}
        <code>~/.memex/local-admin.json</code>).
      </p>
      <p>
        <Link to="/brain">Back to the brain</Link>.
      </p>
    </main>
  );
}

const NAV: Array<{ to: string; label: string; admin?: boolean }> = [
  { to: '/brain', label: 'Brain' },
  { to: '/items', label: 'Items' },
  { to: '/review', label: 'Review' },
  { to: '/sessions', label: 'Sessions' },
  { to: '/health', label: 'Health', admin: true },
];

export function App() {
  const [credentials, setCredentials] = useState<Credentials | null>(loadCredentials);
  const { path } = useLocation();

  const update = (next: Credentials | null) => {
    saveCredentials(next);
    setCredentials(next);
  };

  const signedIn = useMemo<SignedIn | null>(() => {
    if (!credentials) return null;
    return {
      credentials,
      api: bind(credentials),
      isAdmin: credentials.kind === 'admin',
      adminProjectId: credentials.kind === 'admin' ? credentials.projectId : undefined,
      signOut: () => {
        update(null);
        navigate('/', { replace: true });
      },
      chooseProject: (project) => {
        if (credentials.kind !== 'admin') return;
        update({ ...credentials, projectId: project?.projectId, projectName: project?.name });
        navigate(project ? '/brain' : '/projects');
      },
    };
  }, [credentials]);

  if (!signedIn) return <SignIn onSignedIn={(c) => update(c)} />;
  const { credentials: c } = signedIn;
  const needsProject = c.kind === 'admin' && !c.projectId;
  const section = path.split('/')[1] || 'brain';
  return (
    <SignedInContext.Provider value={signedIn}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Memex</span>
        {needsProject ? null : (
          <nav aria-label="Pages">
            <ul>
              {NAV.filter((n) => !n.admin || signedIn.isAdmin).map((n) => (
                <li key={n.to}>
                  <Link to={n.to} aria-current={section === n.to.slice(1) ? 'page' : undefined}>
                    {n.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <span className="who">
          {c.kind === 'admin' ? (
            <>
              admin · {c.projectName ?? 'no project'}{' '}
              <Link to="/projects" className="button small">
                Switch project
              </Link>
            </>
          ) : (
            'project key'
          )}
          <button type="button" className="small" onClick={signedIn.signOut}>
            Sign out
          </button>
        </span>
      </header>
      {needsProject || section === 'projects' ? (
        signedIn.isAdmin ? (
          <ProjectPicker />
        ) : (
          <Page path={path} isAdmin={false} />
        )
      ) : (
        <Page path={path} isAdmin={signedIn.isAdmin} />
      )}
    </SignedInContext.Provider>
  );
}
