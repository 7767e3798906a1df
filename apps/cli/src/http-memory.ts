import {
  DECISIONS_SHOWN,
  MemoryError,
  contextPackBody,
  memoryErrorFrom,
  type ContextPackView,
  type MemoryPort,
} from '@memex/mcp';
import type { BrainView, SummaryView } from '@memex/domain';
import type { ItemDetailView, ItemPageView, ItemView, SearchResponseView } from '@memex/domain';
import { HttpFailure, type MemexHttp } from './memex-http';

/** An assistant waits on these; a context pack over 100k items takes well under this. */
const TIMEOUT_MS = 30_000;

/** The API's answer, or a MemoryError the model can read: its code and message. */
async function answer<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof HttpFailure)) throw error;
    if (error.kind === 'status' && error.status !== undefined && error.status < 500) {
      throw memoryErrorFrom(error.code ?? 'HTTP_ERROR', error.message);
    }
    throw new MemoryError(error.kind === 'unconfigured' ? 'NOT_CONFIGURED' : 'UNAVAILABLE', error.message);
  }
}

/** The MCP server's memory for `memex mcp`: the HTTP API, with the key of MEMEX_API_KEY. */
export function httpMemory(http: MemexHttp): MemoryPort {
  const get = <T>(path: string) => answer(() => http.json<T>('GET', path, { timeoutMs: TIMEOUT_MS }));
  const post = <T>(path: string, body: unknown) =>
    answer(() => http.json<T>('POST', path, { body, timeoutMs: TIMEOUT_MS }));
  return {
    brain: (tokenBudget) =>
      get<BrainView>(`/api/v2/brain${tokenBudget === undefined ? '' : `?tokenBudget=${tokenBudget}`}`),
    summary: () => get<SummaryView>('/api/v2/brain/summary'),
    search: (input) => {
      const query = new URLSearchParams({ q: input.query });
      if (input.limit !== undefined) query.set('limit', String(input.limit));
      if (input.type) query.set('type', input.type);
      if (input.includeArchived !== undefined) query.set('includeArchived', String(input.includeArchived));
      return get<SearchResponseView>(`/api/v2/search?${query.toString()}`);
    },
    contextPack: (input) => post<ContextPackView>('/api/v2/context-pack', contextPackBody(input)),
    remember: (input) => post<ItemView>('/api/v2/memories', input),
    getItem: async (itemId) => (await get<ItemDetailView>(`/api/v2/memory-items/${encodeURIComponent(itemId)}`)).item,
    decisions: async () =>
      (await get<ItemPageView>(`/api/v2/memory-items?type=Decision&status=active&limit=${DECISIONS_SHOWN}`)).items,
  };
}
