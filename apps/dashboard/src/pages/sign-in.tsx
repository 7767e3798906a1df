import { useState, type FormEvent } from 'react';
import { call } from '../api';
import { ErrorMessage, PageTitle } from '../components';
import { credentialsFor, type Credentials } from '../credentials';

/**
 * Sign-in with a project key (mx_…) or the admin token. The token is checked against the API
 * before it is kept, so a wrong one is refused here with the API's own message.
 */
export function SignIn({ onSignedIn }: { onSignedIn: (credentials: Credentials) => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const credentials = credentialsFor(token);
    if (!credentials.token) return;
    setBusy(true);
    setError(null);
    try {
      if (credentials.kind === 'key') await call(credentials, '/api/v2/memory-items', { query: { limit: 1 } });
      else await call(credentials, '/api/v2/projects', { query: { limit: 1 } });
      onSignedIn(credentials);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in">
      <PageTitle>Sign in to Memex</PageTitle>
      <p>
        Use a project&apos;s API key (<code>mx_…</code>, e.g. the local key <code>npm start</code> prints) or the admin
        token (<code>MEMEX_ADMIN_TOKEN</code>). It is kept in this tab only, until you sign out or close it.
      </p>
      <form onSubmit={(e) => void submit(e)}>
        <label htmlFor="token">API key or admin token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          required
        />
        <button type="submit" disabled={busy || !token.trim()}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
      <ErrorMessage error={error} />
    </main>
  );
}
