export interface JsonResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export async function request<T = unknown>(
  url: string,
  init: { method?: string; key?: string; body?: unknown; raw?: string | Buffer; contentType?: string } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = {};
  if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
  let body: string | Buffer | undefined;
  if (init.raw !== undefined) body = init.raw;
  else if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  const response = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (metrics, markdown): the text itself.
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

export type ErrorBody = { error: { code: string; message: string; details: Record<string, unknown> } };

let counter = 0;
/** A valid event; each call a new eventId unless one is given. */
export function event(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    eventId: `evt-${process.pid}-${counter}`,
    type: 'prompt',
    timestamp: '2026-11-21T09:30:00.000Z',
    content: `prompt number ${counter}`,
    ...overrides,
  };
}
