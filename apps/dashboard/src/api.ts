import type { Credentials } from './credentials';

/** An answer of the API that is not a success: `message` is the API's own `error.message`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** `text` for markdown answers. */
  as?: 'json' | 'text';
}

export function queryString(query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * One call of the HTTP API with the signed-in credentials: `Authorization: Bearer`, and for
 * the admin token the project it acts on. Nothing is cached by the browser.
 */
export async function call<T>(credentials: Credentials, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${credentials.token}`,
    accept: options.as === 'text' ? 'text/markdown' : 'application/json',
  };
  if (credentials.kind === 'admin' && credentials.projectId) headers['x-memex-project'] = credentials.projectId;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${path}${queryString(options.query)}`, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Memex did not answer: is the server running?');
  }
  const text = await response.text();
  if (!response.ok) {
    let error: { code?: string; message?: string; details?: Record<string, unknown> } = {};
    try {
      error = (JSON.parse(text) as { error?: typeof error }).error ?? {};
    } catch {
      // Not the API's error shape (a proxy's page): say what status came back.
    }
    throw new ApiError(
      response.status,
      error.code ?? `HTTP_${response.status}`,
      error.message ?? `HTTP ${response.status}`,
      error.details,
    );
  }
  if (options.as === 'text') return text as T;
  return (text ? JSON.parse(text) : undefined) as T;
}
