import { ITEM_LIMITS } from '@memex/domain';
import type { EditProposal, HygieneItem, QualityProblem } from './types';

type LongField = Extract<QualityProblem, { code: 'too-long' }>['field'];

function lengths(item: HygieneItem): Record<LongField, number> {
  return {
    title: item.title.length,
    facts: item.factsLength,
    rationale: item.rationaleLength ?? 0,
    impact: item.impactLength ?? 0,
    files: item.fileCount,
    tags: item.tagCount,
  };
}

const LONG_FIELDS: readonly LongField[] = ['title', 'facts', 'rationale', 'impact', 'files', 'tags'];

export function qualityProblems(item: HygieneItem): QualityProblem[] {
  const problems: QualityProblem[] = [];
  const measured = lengths(item);
  for (const field of LONG_FIELDS) {
    const limit = ITEM_LIMITS[field];
    if (measured[field] > limit) problems.push({ code: 'too-long', field, length: measured[field], limit });
  }
  if (item.type === 'Decision' && !item.rationaleLength) problems.push({ code: 'decision-without-rationale' });
  if (item.evidenceCount === 0 && !item.manual) problems.push({ code: 'no-evidence' });
  return problems;
}

export function describeProblem(problem: QualityProblem): string {
  switch (problem.code) {
    case 'too-long':
      return problem.field === 'files' || problem.field === 'tags'
        ? `${problem.length} ${problem.field} (limit ${problem.limit})`
        : `${problem.field} is ${problem.length} characters long (limit ${problem.limit})`;
    case 'decision-without-rationale':
      return 'a Decision with no rationale';
    case 'no-evidence':
      return 'no evidence';
  }
}

export function qualityProposal(item: HygieneItem): EditProposal | null {
  const problems = qualityProblems(item);
  if (problems.length === 0) return null;
  const listed = problems.map(describeProblem).join('; ');
  return {
    kind: 'edit',
    rule: 'quality',
    itemIds: [item.id],
    problems,
    reason: `${listed[0]!.toUpperCase()}${listed.slice(1)}`,
  };
}
