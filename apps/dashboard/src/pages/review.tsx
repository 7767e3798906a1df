import { useState } from 'react';
import { ColumnHeads } from '../column-heads';
import { ErrorMessage, Notice, PageTitle, StatusBadge, formatDate, useAction, useLoad } from '../components';
import { wordDiff } from '../lib/word-diff';
import { Link } from '../router';
import { useSignedIn } from '../session-context';
import type { Change, Item, Proposal, ProposalItem, Run } from '../types';

function Diff({ mine, theirs }: { mine: string; theirs: string }) {
  return (
    <p className="text">
      {wordDiff(mine, theirs).map((part, i) => (part.changed ? <ins key={i}>{part.text}</ins> : part.text))}
    </p>
  );
}

/** A merge: the items side by side, each against the one kept, its own words marked. */
function MergeView({
  proposal,
  keepId,
  setKeepId,
}: {
  proposal: Proposal;
  keepId: string;
  setKeepId(id: string): void;
}) {
  const kept = proposal.items.find((i) => i.itemId === keepId) ?? proposal.items[0];
  // Each item against the kept one; the kept one against the first of the others.
  const reference = (item: ProposalItem) =>
    item === kept ? (proposal.items.find((i) => i !== kept)?.facts ?? item.facts) : (kept?.facts ?? item.facts);
  return (
    <div className="side-by-side" role="radiogroup" aria-label="Item to keep">
      {proposal.items.map((item: ProposalItem) => (
        <div key={item.itemId} className={`side ${item.itemId === keepId ? 'kept' : ''}`}>
          <label className="check">
            <input
              type="radio"
              name={`keep-${proposal.proposalId}`}
              checked={item.itemId === keepId}
              onChange={() => setKeepId(item.itemId)}
            />
            Keep this one
          </label>
          <h4>
            <Link to={`/items/${item.itemId}`}>{item.title}</Link>
          </h4>
          <p className="meta">
            <StatusBadge status={item.status} /> confidence {item.confidence.toFixed(2)} · {item.evidenceCount} evidence
          </p>
          <Diff mine={item.facts} theirs={reference(item)} />
        </div>
      ))}
    </div>
  );
}

function ProposalCard({ proposal, onDone }: { proposal: Proposal; onDone(): void }) {
  const { api } = useSignedIn();
  const [keepId, setKeepId] = useState(proposal.detail.keepId ?? proposal.itemIds[0]!);
  const [rationale, setRationale] = useState('');
  const action = useAction();
  const needsRationale = proposal.detail.problems?.some((p) => p.code === 'decision-without-rationale') ?? false;

  async function decide(verb: 'apply' | 'reject') {
    const body: Record<string, unknown> = {};
    if (verb === 'apply' && proposal.kind === 'merge') body.keepId = keepId;
    if (verb === 'apply' && needsRationale && rationale.trim()) body.patch = { rationale: rationale.trim() };
    const ok = await action.run(async () => {
      await api(`/api/v2/hygiene/proposals/${proposal.proposalId}/${verb}`, { body });
    });
    if (ok) onDone();
  }

  return (
    <article className="proposal panel" aria-labelledby={`p-${proposal.proposalId}`}>
      <h3 id={`p-${proposal.proposalId}`}>
        {proposal.kind === 'merge' ? 'Merge' : 'Edit'}: {proposal.reason}
      </h3>
      {proposal.kind === 'merge' ? (
        <MergeView proposal={proposal} keepId={keepId} setKeepId={setKeepId} />
      ) : (
        <>
          <p>
            <Link to={`/items/${proposal.items[0]?.itemId ?? proposal.itemIds[0]}`}>
              {proposal.items[0]?.title ?? proposal.itemIds[0]}
            </Link>
            : {proposal.detail.problems?.map((p) => (p.field ? `${p.code} (${p.field})` : p.code)).join(', ')}
          </p>
          {needsRationale ? (
            <div className="field full">
              <label htmlFor={`r-${proposal.proposalId}`}>Rationale to add</label>
              <textarea
                id={`r-${proposal.proposalId}`}
                rows={2}
                value={rationale}
                onChange={(e) => setRationale(e.target.value)}
              />
            </div>
          ) : null}
        </>
      )}
      <div className="actions">
        <button type="button" onClick={() => void decide('apply')} disabled={action.busy}>
          Apply {proposal.kind}
        </button>
        <button type="button" onClick={() => void decide('reject')} disabled={action.busy}>
          Reject
        </button>
      </div>
      <ErrorMessage error={action.error} />
    </article>
  );
}

/** Hygiene: passes on demand, proposals to decide, items in conflict, and recent changes to revert. */
export function ReviewPage() {
  const { api, adminProjectId } = useSignedIn();
  const scope = adminProjectId ? { projectId: adminProjectId } : {};
  const proposals = useLoad(
    () => api<{ proposals: Proposal[] }>('/api/v2/hygiene/proposals', { query: { ...scope, limit: 50 } }),
    [adminProjectId],
  );
  const conflicts = useLoad(
    () => api<{ items: Item[] }>('/api/v2/memory-items', { query: { status: 'review', limit: 50 } }),
    [adminProjectId],
  );
  const changes = useLoad(
    () => api<{ changes: Change[] }>('/api/v2/hygiene/changes', { query: { ...scope, limit: 30 } }),
    [adminProjectId],
  );
  const [run, setRun] = useState<Run | null>(null);
  const action = useAction();

  const reloadAll = () => {
    void proposals.reload();
    void conflicts.reload();
    void changes.reload();
  };

  async function startRun(mode: 'dry-run' | 'apply') {
    await action.run(async () => {
      const started = await api<{ runId: string }>('/api/v2/hygiene/runs', { body: { mode, ...scope } });
      let current: Run;
      const deadline = Date.now() + 60_000;
      do {
        await new Promise((r) => setTimeout(r, 400));
        current = await api<Run>(`/api/v2/hygiene/runs/${started.runId}`, { query: { limit: 1 } });
        setRun(current);
      } while ((current.status === 'queued' || current.status === 'running') && Date.now() < deadline);
      reloadAll();
      return `${mode === 'apply' ? 'Apply pass' : 'Dry run'} ${current.status}.`;
    });
  }

  async function decideConflict(itemId: string, verb: 'approve' | 'deprecate') {
    if (
      await action.run(async () => {
        await api(`/api/v2/memory-items/${itemId}`, { method: 'PATCH', body: { action: verb } });
        return `${verb}: done.`;
      })
    )
      reloadAll();
  }

  async function revert(changeId: string) {
    if (
      await action.run(async () => {
        const done = await api<{ changeIds: string[] }>(`/api/v2/hygiene/changes/${changeId}/revert`, { body: {} });
        return `Reverted (${done.changeIds.length} change${done.changeIds.length === 1 ? '' : 's'}).`;
      })
    )
      reloadAll();
  }

  const counts = run ? Object.entries(run.counts).filter(([, n]) => n > 0) : [];
  return (
    <main id="main">
      <PageTitle>Review</PageTitle>
      <div className="actions" role="group" aria-label="Hygiene passes">
        <button type="button" onClick={() => void startRun('dry-run')} disabled={action.busy}>
          Dry run
        </button>
        <button type="button" onClick={() => void startRun('apply')} disabled={action.busy}>
          Apply pass
        </button>
      </div>
      {run ? (
        <p className="meta" data-testid="run-summary">
          Run {run.runId} ({run.mode}): {run.status}, {run.itemsScanned ?? 0} items scanned
          {counts.length ? ` · ${counts.map(([rule, n]) => `${rule} ${n}`).join(' · ')}` : ''}
          {run.error ? ` · ${run.error}` : ''}
        </p>
      ) : null}
      <ErrorMessage error={action.error} />
      {action.notice ? <Notice text={action.notice} /> : null}

      <section aria-labelledby="proposals-title">
        <h2 id="proposals-title">Proposals ({proposals.data?.proposals.length ?? 0})</h2>
        <ErrorMessage error={proposals.error} />
        {proposals.data?.proposals.length === 0 ? <p>Nothing waits for a decision.</p> : null}
        {proposals.data?.proposals.map((p) => (
          <ProposalCard key={p.proposalId} proposal={p} onDone={reloadAll} />
        ))}
      </section>

      <section aria-labelledby="conflicts-title">
        <h2 id="conflicts-title">Conflicts under review ({conflicts.data?.items.length ?? 0})</h2>
        <ErrorMessage error={conflicts.error} />
        {conflicts.data?.items.length === 0 ? <p>No item is under review.</p> : null}
        <ul className="plain">
          {conflicts.data?.items.map((item) => (
            <li key={item.itemId} className="panel">
              <Link to={`/items/${item.itemId}`}>{item.title}</Link> <span className="mono">{item.schemaKey}</span>
              <p className="text">{item.facts}</p>
              <button type="button" onClick={() => void decideConflict(item.itemId, 'approve')}>
                Approve this one
              </button>{' '}
              <button type="button" onClick={() => void decideConflict(item.itemId, 'deprecate')}>
                Deprecate
              </button>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="changes-title">
        <h2 id="changes-title">Recent changes</h2>
        <ErrorMessage error={changes.error} />
        {changes.data?.changes.length === 0 ? <p>No change has been made yet.</p> : null}
        <table hidden={!changes.data?.changes.length}>
          <ColumnHeads columns={['When', 'Item', 'Rule', 'Move', 'Reason', { hidden: 'Revert' }]} />
          <tbody>
            {changes.data?.changes.map((c) => (
              <tr key={c.changeId}>
                <td>{formatDate(c.createdAt)}</td>
                <td>
                  <Link to={`/items/${c.itemId}`}>{c.title}</Link>
                </td>
                <td>{c.rule}</td>
                <td>{c.from && c.to ? `${c.from} → ${c.to}` : 'fields'}</td>
                <td>{c.reason}</td>
                <td>
                  {c.revertedAt ? (
                    `reverted ${formatDate(c.revertedAt)}`
                  ) : (
                    <button
                      type="button"
                      onClick={() => void revert(c.changeId)}
                      aria-label={`Revert ${c.rule} on ${c.title}`}
                    >
                      Revert
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </main>
  );
}
