/** Text on one line, cut to `width` characters with an ellipsis. */
export function cut(text: unknown, width: number): string {
  const s = String(text ?? '').replace(/\s+/g, ' ');
  return s.length > width ? `${s.slice(0, width - 1)}…` : s;
}

/** Columns padded to their widest cell, a rule under the headers, no trailing spaces. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? '').length)));
  const line = (cells: Array<string | number>) =>
    cells
      .map((c, i) => String(c ?? '').padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** An ISO instant as people read it: `2026-11-20 14:00`. */
export function minute(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') : '-';
}
