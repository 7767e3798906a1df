import { useState, type FormEvent } from 'react';
import { ErrorMessage, PageTitle, useAction } from '../components';
import { navigate } from '../router';
import { useSignedIn } from '../session-context';
import { AUTHORED_ITEM_TYPES, type Item } from '../types';

interface Draft {
  type: string;
  title: string;
  facts: string;
  rationale: string;
  impact: string;
  tags: string;
  files: string;
  importance: string;
}

const draftOf = (item?: Item): Draft => ({
  type: item?.type ?? 'Decision',
  title: item?.title ?? '',
  facts: item?.facts ?? '',
  rationale: item?.rationale ?? '',
  impact: item?.impact ?? '',
  tags: item?.tags.join(', ') ?? '',
  files: item?.files.join('\n') ?? '',
  importance: String(item?.importance ?? 3),
});

const list = (text: string, separator: RegExp) =>
  text
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);

/** What a person writes: a new item (POST), or an edit of one (PATCH, only the fields changed). */
export function ItemForm({ item, onSaved }: { item?: Item; onSaved?: (item: Item) => void }) {
  const { api } = useSignedIn();
  const [draft, setDraft] = useState<Draft>(() => draftOf(item));
  const action = useAction();
  const set = (field: keyof Draft) => (e: { target: { value: string } }) =>
    setDraft({ ...draft, [field]: e.target.value });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const tags = list(draft.tags, /,/);
    const body: Record<string, unknown> = {
      type: draft.type,
      title: draft.title,
      facts: draft.facts,
      rationale: draft.rationale.trim() || null,
      impact: draft.impact.trim() || null,
      tags,
      importance: Number(draft.importance),
    };
    await action.run(async () => {
      if (item) {
        const original = draftOf(item);
        const changed = Object.fromEntries(
          Object.entries(body).filter(([field]) => draft[field as keyof Draft] !== original[field as keyof Draft]),
        );
        if (Object.keys(changed).length === 0) return 'Nothing changed.';
        const saved = await api<Item>(`/api/v2/memory-items/${item.itemId}`, { method: 'PATCH', body: changed });
        onSaved?.(saved);
        return 'Saved.';
      }
      const created = await api<Item>('/api/v2/memory-items', {
        body: { ...body, files: list(draft.files, /\n/) },
      });
      navigate(`/items/${created.itemId}`);
    });
  }

  return (
    <form className="item-form" onSubmit={(e) => void submit(e)} aria-label={item ? 'Edit item' : 'New item'}>
      <div className="field">
        <label htmlFor="i-type">Type</label>
        <select id="i-type" value={draft.type} onChange={set('type')}>
          {AUTHORED_ITEM_TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="i-importance">Importance (1–5)</label>
        <input id="i-importance" type="number" min={1} max={5} value={draft.importance} onChange={set('importance')} />
      </div>
      <div className="field full">
        <label htmlFor="i-title">Title</label>
        <input id="i-title" value={draft.title} onChange={set('title')} maxLength={200} required />
      </div>
      <div className="field full">
        <label htmlFor="i-facts">Facts</label>
        <textarea id="i-facts" rows={5} value={draft.facts} onChange={set('facts')} required />
      </div>
      <div className="field full">
        <label htmlFor="i-rationale">Rationale</label>
        <textarea id="i-rationale" rows={2} value={draft.rationale} onChange={set('rationale')} />
      </div>
      <div className="field full">
        <label htmlFor="i-impact">Impact</label>
        <textarea id="i-impact" rows={2} value={draft.impact} onChange={set('impact')} />
      </div>
      <div className="field full">
        <label htmlFor="i-tags">Tags (comma-separated, lowercase-with-hyphens)</label>
        <input id="i-tags" value={draft.tags} onChange={set('tags')} />
      </div>
      {item ? null : (
        <div className="field full">
          <label htmlFor="i-files">Files (one path a line)</label>
          <textarea id="i-files" rows={2} value={draft.files} onChange={set('files')} />
        </div>
      )}
      <div className="full">
        <button type="submit" disabled={action.busy}>
          {item ? 'Save changes' : 'Create item'}
        </button>
      </div>
      <ErrorMessage error={action.error} />
      {action.notice ? (
        <p role="status" className="notice">
          {action.notice}
        </p>
      ) : null}
    </form>
  );
}

export function NewItemPage() {
  return (
    <main id="main">
      <PageTitle>New item</PageTitle>
      <p className="hint">A person&apos;s word: confidence 1.0, no evidence needed.</p>
      <ItemForm />
    </main>
  );
}
