import { Api } from '../api';
import { parseCommand } from '../args';
import { CliError, usageError } from '../cli-error';
import { emit, type CommandContext } from '../command';
import { cut, table } from '../table';
import type { HygieneRunDetailView, HygieneRunListView, StartedRunView } from '@memex/domain';

export const HYGIENE_USAGE = `memex hygiene run [--project <id>] [--mode dry-run|apply] [--all] [--json]
       memex hygiene show <runId> [--all] [--json]
       memex hygiene runs [--project <id>] [--json]
       memex hygiene apply <proposalId> [--keep <itemId>] [--rationale <text>] [--reason <text>] [--json]
       memex hygiene reject <proposalId> [--reason <text>] [--json]
       memex hygiene revert <changeId> [--reason <text>] [--json]`;

type HygieneRun = HygieneRunDetailView;

const PENDING = new Set(['queued', 'running']);

async function fetchRun(api: Api, runId: string, all: boolean): Promise<HygieneRun> {
  const id = encodeURIComponent(runId);
  const run = await api.get<HygieneRun>(`/api/v2/hygiene/runs/${id}?limit=${all ? 1000 : 50}`);
  if (!all) return run;
  // Every page of changes and proposals, for --all.
  let changesAfter = run.nextChangesAfter;
  let proposalsAfter = run.nextProposalsAfter;
  while (changesAfter || proposalsAfter) {
    const q = new URLSearchParams({ limit: '1000' });
    if (changesAfter) q.set('changesAfter', changesAfter);
    if (proposalsAfter) q.set('proposalsAfter', proposalsAfter);
    const page = await api.get<HygieneRun>(`/api/v2/hygiene/runs/${id}?${q.toString()}`);
    if (changesAfter) run.changes.push(...page.changes);
    if (proposalsAfter) run.proposals.push(...page.proposals);
    changesAfter = changesAfter && page.nextChangesAfter;
    proposalsAfter = proposalsAfter && page.nextProposalsAfter;
  }
  return { ...run, nextChangesAfter: null, nextProposalsAfter: null };
}

export function runText(run: HygieneRun): string {
  const took =
    run.startedAt && run.finishedAt
      ? ` in ${((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000).toFixed(1)} s`
      : '';
  const out = [
    `Hygiene run ${run.runId} (${run.mode}, ${run.trigger}) on project ${run.projectId}: ${run.status}` +
      (run.itemsScanned !== null ? `, ${run.itemsScanned} items scanned${took}` : ''),
  ];
  if (run.error) out.push(`  error: ${run.error}`);
  const counts = Object.entries(run.counts ?? {}).filter(([, n]) => n > 0);
  if (counts.length) out.push(`  counts: ${counts.map(([k, n]) => `${k} ${n}`).join(' · ')}`);
  out.push('');
  const verb = run.mode === 'apply' ? 'Changes made' : 'Changes that would be made (dry run)';
  if (run.changes.length === 0) out.push(`${verb}: none`);
  else {
    out.push(`${verb}:`);
    out.push(
      table(
        ['CHANGE', 'RULE', 'ITEM', 'FROM → TO', 'TITLE', 'REASON'],
        run.changes.map((c) => [
          c.applied ? c.changeId : '-',
          c.rule,
          c.itemId,
          `${c.from} → ${c.to}${c.revertedAt ? ' (reverted)' : ''}`,
          cut(c.title, 40),
          cut(c.reason, 60),
        ]),
      ),
    );
    if (run.nextChangesAfter) out.push(`  … more changes: memex hygiene show ${run.runId} --all`);
  }
  out.push('');
  if (run.proposals.length === 0) out.push('Proposals: none');
  else {
    out.push('Proposals (memex hygiene apply|reject <id>):');
    out.push(
      table(
        ['PROPOSAL', 'KIND', 'STATUS', 'ITEMS', 'REASON'],
        run.proposals.map((p) => [p.proposalId, p.kind, p.status, p.itemIds.length, cut(p.reason, 80)]),
      ),
    );
    if (run.nextProposalsAfter) out.push(`  … more proposals: memex hygiene show ${run.runId} --all`);
  }
  return out.join('\n');
}

/** `memex hygiene …`: start, show and list passes; apply, reject and revert what they proposed or did. */
export async function runHygiene(args: string[], context: CommandContext): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    { values: ['project', 'mode', 'keep', 'rationale', 'reason'], switches: ['all'] },
    HYGIENE_USAGE,
  );
  const [sub, id, ...extra] = positionals;
  if (extra.length) throw usageError(`unexpected ${extra.join(' ')}`, HYGIENE_USAGE);
  const api = new Api(context.connection);
  const show = (value: unknown, text: () => string) => emit(context, values.json, value, text);
  const needId = (what: string) => {
    if (!id) throw usageError(`memex hygiene ${sub} needs a ${what}`, HYGIENE_USAGE);
    return encodeURIComponent(id);
  };
  const reason = values.reason ? { reason: values.reason } : {};
  switch (sub) {
    case 'run': {
      const mode = values.mode ?? 'dry-run';
      if (mode !== 'dry-run' && mode !== 'apply') throw usageError('--mode must be dry-run or apply', HYGIENE_USAGE);
      const started = await api.post<StartedRunView>('/api/v2/hygiene/runs', {
        mode,
        ...(values.project ? { projectId: values.project } : {}),
      });
      const deadline = Date.now() + Number(process.env.MEMEX_WAIT_MS || 300_000);
      let run = await fetchRun(api, started.runId, values.all ?? false);
      while (PENDING.has(run.status)) {
        if (Date.now() > deadline)
          throw new CliError(`run ${started.runId} is still ${run.status}; see memex hygiene show ${started.runId}`);
        await new Promise((r) => setTimeout(r, 250));
        run = await fetchRun(api, started.runId, values.all ?? false);
      }
      show(run, () => runText(run));
      return run.status === 'failed' ? 1 : 0;
    }
    case 'show': {
      const run = await fetchRun(api, decodeURIComponent(needId('run id')), values.all ?? false);
      show(run, () => runText(run));
      return 0;
    }
    case 'runs': {
      const q = values.project ? `?projectId=${encodeURIComponent(values.project)}` : '';
      const { runs } = await api.get<HygieneRunListView>(`/api/v2/hygiene/runs${q}`);
      show(runs, () =>
        runs.length === 0
          ? 'No hygiene runs yet.'
          : table(
              ['RUN', 'PROJECT', 'MODE', 'TRIGGER', 'STATUS', 'ITEMS', 'CREATED'],
              runs.map((r) => [r.runId, r.projectId, r.mode, r.trigger, r.status, r.itemsScanned ?? '-', r.createdAt]),
            ),
      );
      return 0;
    }
    case 'apply': {
      const proposal = needId('proposal id');
      const result = await api.post<{ proposal: { kind: string }; changeIds: string[] }>(
        `/api/v2/hygiene/proposals/${proposal}/apply`,
        {
          ...(values.keep ? { keepId: values.keep } : {}),
          ...(values.rationale ? { patch: { rationale: values.rationale } } : {}),
          ...reason,
        },
      );
      show(
        result,
        () => `Applied ${result.proposal.kind} proposal ${id}; changes (revertible): ${result.changeIds.join(', ')}`,
      );
      return 0;
    }
    case 'reject': {
      const result = await api.post<unknown>(`/api/v2/hygiene/proposals/${needId('proposal id')}/reject`, reason);
      show(result, () => `Rejected proposal ${id}; later passes will not propose it again.`);
      return 0;
    }
    case 'revert': {
      const result = await api.post<{ changeId: string; changeIds: string[] }>(
        `/api/v2/hygiene/changes/${needId('change id')}/revert`,
        reason,
      );
      const also =
        result.changeIds.length > 1
          ? `; the rest of its proposal went back with it (${result.changeIds.length} changes)`
          : '';
      show(result, () => `Reverted change ${id} (recorded as change ${result.changeId})${also}.`);
      return 0;
    }
    default:
      throw usageError(sub ? `unknown hygiene command ${sub}` : 'which hygiene command?', HYGIENE_USAGE);
  }
}
