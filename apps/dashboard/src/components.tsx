import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import Markdown from 'react-markdown';
import { ApiError } from './api';

/** An error as the API worded it, announced to screen readers. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiError ? error.code : null;
  return (
    <p className="error" role="alert">
      {code ? <span className="code">{code}</span> : null} {message}
    </p>
  );
}

/** A status line read out when it changes (saved, applied, copied …). */
export function Notice({ text }: { text: string }) {
  return (
    <p className="notice" role="status" aria-live="polite">
      {text}
    </p>
  );
}

/** Loads `load` on mount and whenever `deps` change; `reload` runs it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const generation = useRef(0);
  const run = useCallback(async () => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    try {
      const data = await load();
      if (mine === generation.current) setState({ data, loading: false });
    } catch (error) {
      if (mine === generation.current) setState({ error, loading: false });
    }
    // The caller's deps decide when to load again.
  }, deps);
  useEffect(() => {
    void run();
  }, [run]);
  return { ...state, reload: run };
}

/** Runs one mutation at a time, keeping its error for the page to show. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');
  const run = useCallback(async (work: () => Promise<string | void>) => {
    setBusy(true);
    setError(null);
    setNotice('');
    try {
      const done = await work();
      if (done) setNotice(done);
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, notice, run, setError };
}

/** The document's headings sit under the page's own (h1) and its section's (h2). */
const NESTED_HEADINGS = { h1: 'h3', h2: 'h4', h3: 'h5', h4: 'h6' } as const;

interface MdNode {
  type: string;
  children?: MdNode[];
}

/**
 * Raw HTML in item text is a name from the code (`<ruby>`, `<rt>`), shown as the text it is:
 * never parsed as HTML, and not dropped either, so the page shows what the assistant reads.
 */
function htmlAsText() {
  const walk = (node: MdNode): void => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(walk);
  };
  return walk;
}

/**
 * Markdown rendered as React elements: raw HTML in it is shown as text, never parsed, and
 * links only keep safe protocols (react-markdown's default), so item text stays inert.
 */
export function SafeMarkdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={[htmlAsText]} components={NESTED_HEADINGS}>
        {text}
      </Markdown>
    </div>
  );
}

/** The page's heading, focused when the page opens so screen readers announce it. */
export function PageTitle({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 16)}`;
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{status}</span>;
}

/** Copies text; the clipboard API needs a secure context, so a selection is the fallback. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('the browser refused to copy; select the text and copy it by hand');
}

/** Pages of a list the server pages by cursor: the cursors of the pages before this one make "Previous page". */
export function useCursorPages() {
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  return {
    cursor: cursors[cursors.length - 1],
    number: cursors.length,
    previous: cursors.length > 1 ? () => setCursors((c) => c.slice(0, -1)) : undefined,
    next: (cursor: string) => setCursors((c) => [...c, cursor]),
    reset: () => setCursors([undefined]),
  };
}

/** One page of a list the server pages by cursor, loaded again whenever the pager moves. */
export function useCursorPage<T>(load: (cursor: string | undefined) => Promise<T>) {
  const pages = useCursorPages();
  const { cursor } = pages;
  const page = useLoad(() => load(cursor), [cursor]);
  return { pages, page };
}

export function Pager({
  pages,
  nextCursor,
  hidden = false,
}: {
  pages: ReturnType<typeof useCursorPages>;
  nextCursor: string | null | undefined;
  hidden?: boolean;
}) {
  return (
    <nav className="pager" aria-label="Pagination" hidden={hidden}>
      <button type="button" disabled={!pages.previous} onClick={pages.previous}>
        Previous page
      </button>
      <span>Page {pages.number}</span>
      <button type="button" disabled={!nextCursor} onClick={() => nextCursor && pages.next(nextCursor)}>
        Next page
      </button>
    </nav>
  );
}
