/** The headings the brain assembler opens its layers with (libs/brain). */
export const LAYER_HEADINGS = {
  layer0: '## Project Brief',
  layer1: '## Active Knowledge',
  layer2: '## Reference Knowledge',
} as const;
export type ShownLayer = keyof typeof LAYER_HEADINGS;

/**
 * The brain document with only the layers asked for. Item text never starts a line with `#`
 * (the assembler escapes it), so a line starting `## ` is always one of the document's own
 * headings: the title and its line stay, and so does the footer (after its `---`).
 */
export function keepLayers(document: string, shown: ReadonlySet<ShownLayer>): string {
  const byHeading = new Map<string, ShownLayer>(
    Object.entries(LAYER_HEADINGS).map(([layer, heading]) => [heading, layer as ShownLayer]),
  );
  let current: ShownLayer | null = null;
  const kept: string[] = [];
  for (const line of document.split('\n')) {
    if (line.startsWith('## ')) current = byHeading.get(line.trim()) ?? null;
    // The footer's rule: what follows belongs to no layer.
    else if (line === '---') current = null;
    if (current === null || shown.has(current)) kept.push(line);
  }
  return kept.join('\n');
}
