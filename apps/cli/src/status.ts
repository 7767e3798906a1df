import type { StatusView } from '@memex/domain';
import { Api } from './api';
import { parseFlags } from './args';
import { emit, type CommandContext } from './command';

export const STATUS_USAGE = 'memex status [--project <id>] [--json]';
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

/** `memex status`: the server, the project's sessions and items, the last enrichment, model spend. */
export async function runStatus(args: string[], context: CommandContext): Promise<number> {
  const values = parseFlags(args, { values: ['project'] }, STATUS_USAGE);
  const { url } = context.connection;
  const status = await new Api(context.connection, values.project).get<StatusView>('/api/v2/status');
  const ready = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(TIMEOUT_MS) })
    .then((r) => r.json() as Promise<Ready>)
    .catch(() => undefined);
  emit(context, values.json, { url, health: ready ?? null, ...status }, () =>
    statusLines(url, ready, status).join('\n'),
  );
  return 0;
}
