import { createContext, useContext } from 'react';
import { call, type RequestOptions } from './api';
import type { Credentials } from './credentials';

export interface SignedIn {
  credentials: Credentials;
  /** The API with these credentials. */
  api: <T>(path: string, options?: RequestOptions) => Promise<T>;
  isAdmin: boolean;
  /** The admin token's project (query and body parameter of the hygiene API); undefined for a key. */
  adminProjectId: string | undefined;
  signOut(): void;
  /** The admin token: pick (or change) the project it acts on. */
  chooseProject(project: { projectId: string; name: string } | null): void;
}

export const SignedInContext = createContext<SignedIn | null>(null);

export function useSignedIn(): SignedIn {
  const value = useContext(SignedInContext);
  if (!value) throw new Error('useSignedIn outside a signed-in page');
  return value;
}

export function bind(credentials: Credentials) {
  return <T,>(path: string, options?: RequestOptions) => call<T>(credentials, path, options);
}
