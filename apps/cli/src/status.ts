import type { StatusView } from '@memex/domain';
import type { Connection } from './connection';
import { HttpFailure, MemexHttp } from './memex-http';

const TIMEOUT_MS = 10_000;

interface Ready {
  status: string;
  checks: Record<string, { ok: boolean; error?: string }>;
}

const count = (n: number) => n.toLocaleString('en-US');
const dollars = (n: number | null) => (n === null ? 'cost unknown' : `$${n.toFixed(n < 1 ? 4 : 2)}`);
const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never');

/** The lines `memex status` prints for a person. */
export function statusLines(url: string, ready: Ready | undefined, status: StatusView): string[] {
  const checks = ready
    ? Object.entries(ready.checks)
        .map(([name, c]) => `${name} ${c.ok ? 'ok' : `down (${c.error ?? 'no answer'})`}`)
        .join(', ')
    : 'health unknown';
  const engine = status.engine.model ? `${status.engine.name} (${status.engine.model})` : status.engine.name;
  const today = status.usageToday;
  const left = [
    today.left.tokens === null ? undefined : `${count(today.left.tokens)} tokens`,
    today.left.costUsd === null ? undefined : dollars(today.left.costUsd),
  ].filter(Boolean);
  return [
    `Memex at ${url}: ${ready?.status ?? 'unknown'} (${checks})`,
    `project ${status.projectId}, engine ${engine}`,
    `sessions: ${count(status.sessions.total)} (${count(status.sessions.lagging)} waiting for enrichment), last event ${when(status.sessions.lastEventAt)}`,
    `items: ${count(status.items.live)} live, ${count(status.items.review)} in review, ${count(status.items.archived)} archived; last enrichment ${when(status.lastEnrichmentAt)}`,
    status.engine.name === 'local'
      ? 'model spend: none (the local engine calls no model)'
      : `model spend today: ${count(today.tokens)} tokens, ${dollars(today.costUsd)}${left.length ? `; left today: ${left.join(', ')}` : ''}`,
    ...(today.spent ? [`budget spent (${today.spent}): windows go to the local engine until midnight UTC`] : []),
  ];
}

/** `memex status [--json]`: the server, the project's sessions and items, the last enrichment, model spend. */
export async function runStatus(connection: Connection, json: boolean, out: (line: string) => void): Promise<number> {
  const http = new MemexHttp(connection);
  try {
    const status = await http.json<StatusView>('GET', '/api/v2/status', { timeoutMs: TIMEOUT_MS });
    const ready = await fetch(`${connection.url}/health/ready`, { signal: AbortSignal.timeout(TIMEOUT_MS) })
      .then((r) => r.json() as Promise<Ready>)
      .catch(() => undefined);
    if (json) out(JSON.stringify({ url: connection.url, health: ready ?? null, ...status }, null, 2));
    else statusLines(connection.url, ready, status).forEach((line) => out(line));
    return 0;
  } catch (error) {
    if (!(error instanceof HttpFailure)) throw error;
    process.stderr.write(`memex status: ${error.message}\n`);
    return 1;
  }
}
