/**
 * Who the dashboard acts as. Kept in sessionStorage only: it lives as long as the tab, is
 * never written to localStorage or a cookie, and no other site can read it.
 */
export type Credentials =
  { kind: 'key'; token: string } | { kind: 'admin'; token: string; projectId?: string; projectName?: string };

const STORAGE_KEY = 'memex.credentials';

export function loadCredentials(): Credentials | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Credentials;
    return typeof value.token === 'string' && (value.kind === 'key' || value.kind === 'admin') ? value : null;
  } catch {
    return null;
  }
}

export function saveCredentials(credentials: Credentials | null): void {
  if (credentials) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credentials));
  else sessionStorage.removeItem(STORAGE_KEY);
}

/** Project keys start with mx_; anything else is taken for the admin token. */
export function credentialsFor(token: string): Credentials {
  const trimmed = token.trim();
  return trimmed.startsWith('mx_') ? { kind: 'key', token: trimmed } : { kind: 'admin', token: trimmed };
}
