import type { MemoryItem } from '@memex/domain';
import { briefLines, consolidate, defaultEstimate, hashDocument } from './assemble';
import { classify } from './classify';
import { ageDays, byScore } from './scoring';
import { inline, inlineWithin } from './render';

export const SUMMARY_TOKEN_BUDGET = 1000;

/**
 * The CLAUDE.md summary (≈ 1,000 tokens): the brief, recent decisions and known issues, enough
 * for quick orientation without the full brain.
 */
export function assembleSummary(
  items: readonly MemoryItem[],
  now: Date,
  options: { projectName?: string; tokenBudget?: number; estimateTokens?: (text: string) => number } = {},
): { document: string; tokenEstimate: number; brainHash: string } {
  const estimate = options.estimateTokens ?? defaultEstimate;
  const budget = options.tokenBudget ?? SUMMARY_TOKEN_BUDGET;
  const live = items.filter((i) => {
    const layer = classify(i, now);
    return layer === 1 || layer === 2;
  });
  const order = byScore(now);
  const decisions = live
    .filter((i) => i.type === 'Decision' && ageDays(i, now) <= 30)
    .sort((a, b) => ageDays(a, now) - ageDays(b, now) || order(a, b))
    .slice(0, 8);
  const issues = live
    .filter((i) => i.type === 'BugFix' && i.resolvedAt === null)
    .sort(order)
    .slice(0, 8);

  const blocks: string[][] = [
    [`# ${options.projectName ? inlineWithin(options.projectName, 100) : 'Project'}: memory summary`],
    [
      '## Brief',
      ...briefLines(
        consolidate(live, now).map((c) => c.item),
        live,
        now,
      ).map((b) => b.line),
    ],
    ...(decisions.length
      ? [
          [
            '## Recent decisions',
            ...decisions.map(
              (d) => `- ${inline(d.title, 160)}${d.rationale ? `: ${inlineWithin(d.rationale, 160)}` : ''}`,
            ),
          ],
        ]
      : []),
    ...(issues.length
      ? [['## Known issues', ...issues.map((b) => `- ${inline(b.title, 160)}: ${inlineWithin(b.facts, 160)}`)]]
      : []),
  ];
  const lines: string[] = [];
  let used = 0;
  for (const block of blocks) {
    for (const line of block) {
      const need = estimate(`${line}\n`);
      if (used + need > budget) break;
      lines.push(line);
      used += need;
    }
    // A heading left with nothing under it says nothing.
    if (lines[lines.length - 1] === block[0] && block.length > 1) {
      used -= estimate(`${lines.pop()!}\n`);
    }
  }
  const document = `${lines.join('\n')}\n`;
  return { document, tokenEstimate: estimate(document), brainHash: hashDocument(document) };
}
