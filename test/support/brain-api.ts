import { request } from './http';
import type { TestAppContext } from './use-test-app';

/** The brain and memory-item routes of the file's test app, with its project's key. */
export type Item = { itemId: string; title: string; status: string; resolvedAt: string | null; type: string };
export type BrainBody = {
  document: string;
  tokenEstimate: number;
  itemsLoaded: number;
  schemaKeys: string[];
  brainHash: string;
  tree: unknown[];
  layers: Record<string, { items: number; tokens: number }>;
};

export function brainApi(ctx: TestAppContext) {
  const url = (path: string) => `${ctx.server.url}${path}`;
  const key = () => ctx.project.apiKey;

  async function create(body: Record<string, unknown>, k = key()): Promise<Item> {
    const res = await request<Item>(url('/api/v2/memory-items'), { key: k, body });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** PATCHes a memory item (an edit, or an action such as deprecate) with the project's key: the answer, whatever it is. */
  function patch<T = unknown>(itemId: string, body: Record<string, unknown>) {
    return request<T>(url(`/api/v2/memory-items/${itemId}`), { key: key(), method: 'PATCH', body });
  }

  async function brain(query = '', headers: Record<string, string> = {}) {
    const response = await fetch(url(`/api/v2/brain${query}`), {
      headers: { authorization: `Bearer ${key()}`, ...headers },
    });
    const text = await response.text();
    return {
      status: response.status,
      etag: response.headers.get('etag'),
      type: response.headers.get('content-type'),
      text,
    };
  }

  async function revision(): Promise<number> {
    const row = await ctx.database.db
      .selectFrom('projects')
      .select('memory_revision')
      .where('id', '=', ctx.project.projectId)
      .executeTakeFirstOrThrow();
    return row.memory_revision;
  }

  return { url, key, create, patch, brain, revision };
}
