import { useState, type FormEvent } from 'react';
import { ErrorMessage, Notice, PageTitle, SafeMarkdown, copyText, useLoad } from '../components';
import { LAYER_HEADINGS, keepLayers, type ShownLayer } from '../lib/brain-layers';
import { useSignedIn } from '../session-context';
import type { BrainMeta } from '../types';

const LAYER_NAMES: Record<ShownLayer, string> = {
  layer0: 'Layer 0 · project brief',
  layer1: 'Layer 1 · active knowledge',
  layer2: 'Layer 2 · reference knowledge',
};

/** The brain as the assistant gets it, within a budget, and the CLAUDE.md summary. */
export function BrainPage() {
  const { api } = useSignedIn();
  const [budgetInput, setBudgetInput] = useState('6000');
  const [budget, setBudget] = useState(6000);
  const [shown, setShown] = useState<Set<ShownLayer>>(new Set(['layer0', 'layer1', 'layer2']));
  const [copied, setCopied] = useState('');
  const [copyError, setCopyError] = useState<unknown>(null);

  const brain = useLoad(async () => {
    const [document, meta] = await Promise.all([
      api<string>('/api/v2/brain', { query: { tokenBudget: budget }, as: 'text' }),
      api<BrainMeta>('/api/v2/brain', { query: { tokenBudget: budget } }),
    ]);
    return { document, meta };
  }, [budget]);
  const summary = useLoad(() => api<string>('/api/v2/brain/summary', { as: 'text' }), []);

  function apply(event: FormEvent) {
    event.preventDefault();
    setBudget(Number(budgetInput));
  }

  function toggle(layer: ShownLayer) {
    const next = new Set(shown);
    if (next.has(layer)) next.delete(layer);
    else next.add(layer);
    setShown(next);
  }

  async function copySummary() {
    setCopyError(null);
    try {
      await copyText(summary.data ?? '');
      setCopied('Summary copied to the clipboard.');
    } catch (e) {
      setCopied('');
      setCopyError(e);
    }
  }

  const meta = brain.data?.meta;
  return (
    <main id="main">
      <PageTitle>Brain</PageTitle>
      <form className="toolbar" onSubmit={apply} aria-label="Brain options">
        <label htmlFor="budget">Token budget</label>
        <input
          id="budget"
          type="number"
          min={500}
          max={100000}
          step={500}
          value={budgetInput}
          onChange={(e) => setBudgetInput(e.target.value)}
        />
        <button type="submit">Assemble</button>
        <fieldset className="inline">
          <legend>Layers shown</legend>
          {(Object.keys(LAYER_HEADINGS) as ShownLayer[]).map((layer) => (
            <label key={layer} className="check">
              <input type="checkbox" checked={shown.has(layer)} onChange={() => toggle(layer)} />
              {LAYER_NAMES[layer]}
              {meta ? ` (${meta.layers[layer].items} items, ${meta.layers[layer].tokens} tokens)` : ''}
            </label>
          ))}
        </fieldset>
      </form>
      <ErrorMessage error={brain.error} />
      {meta ? (
        <dl className="facts" aria-label="About this brain">
          <dt>Tokens</dt>
          <dd data-testid="brain-tokens">
            {meta.tokenEstimate.toLocaleString('en')} of {budget.toLocaleString('en')}
          </dd>
          <dt>Items shown</dt>
          <dd>{meta.itemsLoaded}</dd>
          <dt>Archived, not shown</dt>
          <dd>{meta.layers.layer3.items}</dd>
          <dt>Revision (brainHash)</dt>
          <dd className="mono" data-testid="brain-hash">
            {meta.brainHash}
          </dd>
        </dl>
      ) : null}
      <p className="hint">The assistant always gets every layer; hiding one here only hides it from this view.</p>
      <div className="split">
        <section aria-labelledby="brain-doc" className="panel doc">
          <h2 id="brain-doc">Document</h2>
          {brain.loading && !brain.data ? <p>Loading…</p> : null}
          {brain.data ? <SafeMarkdown text={keepLayers(brain.data.document, shown)} /> : null}
        </section>
        <section aria-labelledby="summary-title" className="panel">
          <h2 id="summary-title">CLAUDE.md summary</h2>
          <button type="button" onClick={() => void copySummary()} disabled={!summary.data}>
            Copy summary
          </button>
          {copied ? <Notice text={copied} /> : null}
          <ErrorMessage error={copyError ?? summary.error} />
          <pre className="summary" tabIndex={0} aria-label="CLAUDE.md summary text">
            {summary.data ?? ''}
          </pre>
        </section>
      </div>
    </main>
  );
}
