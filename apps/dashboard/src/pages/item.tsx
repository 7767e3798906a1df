import { useState } from 'react';
import { ColumnHeads } from '../column-heads';
import { ErrorMessage, Notice, PageTitle, StatusBadge, formatDate, useAction, useLoad } from '../components';
import { Link, navigate } from '../router';
import { useSignedIn } from '../session-context';
import { MANUAL_SESSION_ID, type HistoryEntry, type Item, type ItemAction, type StoredEvent } from '../types';
import { ItemForm } from './item-form';

/** Which actions make sense for an item as it is (the API judges them all the same). */
function actionsFor(item: Item): ItemAction[] {
  const actions: ItemAction[] = [];
  if (item.status === 'review' || item.status === 'stale') actions.push('approve');
  if (item.status === 'archived') actions.push('restore');
  else actions.push('deprecate', 'archive');
  if (item.type === 'BugFix' || item.type === 'Todo') actions.push(item.resolvedAt ? 'reopen' : 'resolve');
  return actions;
}

const LABELS: Record<ItemAction, string> = {
  approve: 'Approve',
  deprecate: 'Deprecate (no longer true)',
  archive: 'Archive (no longer worth showing)',
  restore: 'Restore',
  resolve: 'Resolve',
  reopen: 'Reopen',
};

/** An evidence quote and, on demand, the event it was quoted from. */
function Evidence({ eventId, quote }: { eventId: string; quote: string }) {
  const { api } = useSignedIn();
  const [event, setEvent] = useState<StoredEvent | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState(false);
  async function show() {
    setOpen(!open);
    if (event || open) return;
    try {
      setEvent(await api<StoredEvent>(`/api/v2/events/${encodeURIComponent(eventId)}`));
    } catch (e) {
      setError(e);
    }
  }
  return (
    <li>
      <blockquote>{quote}</blockquote>
      <button type="button" className="link" aria-expanded={open} onClick={() => void show()}>
        event {eventId}
      </button>
      {open ? (
        <div className="event">
          <ErrorMessage error={error} />
          {event ? (
            <>
              <p>
                <strong>{event.type}</strong> at {formatDate(event.timestamp)} in session{' '}
                <Link to={`/sessions/${event.session.id}`}>{event.session.externalId}</Link>
              </p>
              <pre>{event.content}</pre>
            </>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** Columns every change moves along with it: not what a reader looks for. */
const BOOKKEEPING = new Set(['updated_at', 'status_changed_at']);

/** The fields a history entry changed, before → after. */
function changedFields(entry: HistoryEntry): string[] {
  if (!entry.before || !entry.after) return [];
  const keys = new Set([...Object.keys(entry.before), ...Object.keys(entry.after)]);
  return [...keys].filter(
    (k) => !BOOKKEEPING.has(k) && JSON.stringify(entry.before![k]) !== JSON.stringify(entry.after![k]),
  );
}

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function ItemPage({ itemId }: { itemId: string }) {
  const { api } = useSignedIn();
  const loaded = useLoad(
    () => api<{ item: Item; history: HistoryEntry[] }>(`/api/v2/memory-items/${itemId}`),
    [itemId],
  );
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const action = useAction();
  const item = loaded.data?.item;

  async function act(name: ItemAction) {
    if (
      await action.run(async () => {
        await api(`/api/v2/memory-items/${itemId}`, { method: 'PATCH', body: { action: name } });
        return `${LABELS[name].split(' (')[0]}: done.`;
      })
    )
      void loaded.reload();
  }

  async function remove() {
    await action.run(async () => {
      await api(`/api/v2/memory-items/${itemId}`, { method: 'DELETE' });
      navigate('/items');
    });
  }

  if (!item) {
    return (
      <main id="main">
        <PageTitle>Item</PageTitle>
        <ErrorMessage error={loaded.error} />
        {loaded.loading ? <p>Loading…</p> : null}
      </main>
    );
  }
  return (
    <main id="main">
      <p>
        <Link to="/items">← Items</Link>
      </p>
      <PageTitle>{item.title}</PageTitle>
      <p className="meta">
        <span className="badge">{item.type}</span> <StatusBadge status={item.status} /> confidence{' '}
        {item.confidence.toFixed(2)} · importance {item.importance ?? '—'} · updated {formatDate(item.updatedAt)}
        {item.resolvedAt ? ` · resolved ${formatDate(item.resolvedAt)}` : ''}
      </p>
      <div className="actions" role="group" aria-label="Actions">
        <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
          {editing ? 'Close editor' : 'Edit'}
        </button>
        {actionsFor(item).map((name) => (
          <button key={name} type="button" disabled={action.busy} onClick={() => void act(name)}>
            {LABELS[name]}
          </button>
        ))}
        {confirmDelete ? (
          <span className="confirm" role="group" aria-label="Confirm deletion">
            Delete for good, with its history?
            <button type="button" className="danger" onClick={() => void remove()} disabled={action.busy}>
              Yes, delete
            </button>
            <button type="button" onClick={() => setConfirmDelete(false)}>
              Keep it
            </button>
          </span>
        ) : (
          <button type="button" className="danger" onClick={() => setConfirmDelete(true)}>
            Delete
          </button>
        )}
      </div>
      <ErrorMessage error={action.error} />
      {action.notice ? <Notice text={action.notice} /> : null}
      {editing ? (
        <ItemForm
          key={item.updatedAt}
          item={item}
          onSaved={() => {
            setEditing(false);
            void loaded.reload();
          }}
        />
      ) : null}
      <div className="split">
        <section className="panel" aria-labelledby="facts-title">
          <h2 id="facts-title">Facts</h2>
          <p className="text">{item.facts}</p>
          {item.rationale ? (
            <>
              <h3>Rationale</h3>
              <p className="text">{item.rationale}</p>
            </>
          ) : null}
          {item.impact ? (
            <>
              <h3>Impact</h3>
              <p className="text">{item.impact}</p>
            </>
          ) : null}
          <h3>Files</h3>
          {item.files.length ? (
            <ul className="files">
              {item.files.map((f) => (
                <li key={f} className="mono">
                  {f}
                </li>
              ))}
            </ul>
          ) : (
            <p>None.</p>
          )}
          <h3>Tags</h3>
          <p>{item.tags.length ? item.tags.join(', ') : 'None.'}</p>
          <h3>Session</h3>
          <p>
            {item.sessionId === MANUAL_SESSION_ID ? (
              'Written by hand'
            ) : (
              <Link to={`/sessions/${item.sessionId}`}>{item.sessionId}</Link>
            )}
            {item.supersededBy ? (
              <>
                {' '}
                · replaced by <Link to={`/items/${item.supersededBy}`}>{item.supersededBy}</Link>
              </>
            ) : null}
          </p>
        </section>
        <section className="panel" aria-labelledby="evidence-title">
          <h2 id="evidence-title">Evidence</h2>
          {item.evidenceSpans.length ? (
            <ul className="evidence">
              {item.evidenceSpans.map((span, i) => (
                <Evidence key={`${span.eventId}-${i}`} {...span} />
              ))}
            </ul>
          ) : (
            <p>No quoted evidence.</p>
          )}
        </section>
      </div>
      <section aria-labelledby="history-title">
        <h2 id="history-title">History</h2>
        <table>
          <ColumnHeads columns={['When', 'Change', 'Who', 'Why', 'Fields']} />
          <tbody>
            {loaded.data!.history.map((entry) => (
              <tr key={entry.id}>
                <td>{formatDate(entry.createdAt)}</td>
                <td>{entry.change}</td>
                <td>
                  {entry.actorType}: {entry.actor}
                </td>
                <td>{entry.reason ?? '—'}</td>
                <td>
                  {changedFields(entry).map((field) => (
                    <div key={field} className="field-change">
                      <span className="mono">{field}</span>: {shown(entry.before![field]).slice(0, 120)} →{' '}
                      {shown(entry.after![field]).slice(0, 120)}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </main>
  );
}
