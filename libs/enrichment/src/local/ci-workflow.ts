import { inCode } from '../text';
import { propose, type Proposal } from './proposal';
import type { ReadFile } from './read-files';

/** A workflow step's command on one line (`run: bun run lint`), or the start of a script (`run: |`). */
const RUN = /^\s*(?:-\s+)?run:\s+(\S(?:.*\S)?)\s*$/;
const STEP_NAME = /^\s*-\s+name:\s+(\S(?:.*\S)?)\s*$/;
const WORKFLOW_NAME = /^name:\s+(\S(?:.*\S)?)\s*$/;
/** A job under `jobs:`, by its two-space indent, and what orders or gates it. */
const JOB = /^ {2}([\w-]+):\s*$/;
const NEEDS = /^ {4}needs:\s+(\S(?:.*\S)?)\s*$/;
const IF = /^ {4}if:\s+(\S(?:.*\S)?)\s*$/;

interface Job {
  name: string;
  gate: string[];
  steps: Array<{ text: string; line: string; command: boolean }>;
}

/** Programs that do what a script step is for: deploy, restart, build, check. */
const ACTION =
  /(?:^|[\s"'(;&|])((?:rsync|scp|systemctl|docker|kubectl|helm|curl|wget|terraform|aws|gcloud|flyctl|npm|npx|bun|yarn|pnpm|go|cargo|make|pytest|uv|git push)\b[^\\]*)/;

/**
 * A command cut from a shell line, without the blanks after it and a quote that closed a string
 * it began outside the cut (`$SSH "… systemctl restart app"`). A loop, not a regex: linear on any line.
 */
function withoutClosingQuotes(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1]!)) end -= 1;
  const last = text[end - 1];
  if ((last === '"' || last === "'") && text.slice(0, end).split(last).length % 2 === 0) end -= 1;
  return text.slice(0, end).trimEnd();
}

/**
 * What a script step does, by the lines of it that run one of those programs (at most three,
 * each cut at a word): "Deploy to VPS (a script: `rsync -avz …`, `systemctl restart app`)".
 */
function scriptSummary(lines: readonly string[], start: number): string {
  const indent = /^\s*/.exec(lines[start]!)![0].length;
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() && /^\s*/.exec(line)![0].length <= indent) break;
    const action = withoutClosingQuotes(ACTION.exec(line.replace(/\s#.*$/, ''))?.[1]);
    if (action && !body.includes(action))
      body.push(action.length > 60 ? `${action.slice(0, action.lastIndexOf(' ', 60))} …` : action);
  }
  return body.length > 0 ? `a script: ${body.slice(0, 3).map(inCode).join(', ')}` : 'a script';
}

function jobsOf(lines: readonly string[]): Job[] {
  const jobs: Job[] = [];
  let inJobs = false;
  let step: string | undefined;
  for (const [i, line] of lines.entries()) {
    if (/^\S/.test(line)) inJobs = /^jobs:\s*$/.test(line);
    if (!inJobs) continue;
    const job = JOB.exec(line);
    if (job) jobs.push({ name: job[1]!, gate: [], steps: [] });
    const current = jobs.at(-1);
    if (!current) continue;
    const needs = NEEDS.exec(line);
    if (needs) current.gate.push(`after ${inCode(needs[1]!.replace(/^\[|\]$/g, ''))}`);
    const when = IF.exec(line);
    if (when) current.gate.push(`if ${inCode(when[1]!)}`);
    // A step's name is its own: a new step (`- uses: …`, `- run: …`) forgets the last one's.
    if (/^\s*-\s/.test(line)) step = STEP_NAME.exec(line)?.[1];
    const run = RUN.exec(line);
    if (!run) continue;
    const script = /^[|>][-+]?$/.test(run[1]!);
    const text = script
      ? step
        ? `${step} (${scriptSummary(lines, i)})`
        : undefined
      : `${step ? `${step} ` : ''}${inCode(run[1]!)}`;
    if (text) current.steps.push({ text, line: line.trim(), command: !script });
    step = undefined;
  }
  return jobs.filter((j) => j.steps.length > 0);
}

/**
 * What a GitHub Actions workflow the session opened runs: each job's steps in order, with their
 * names (a step that runs a script of several lines, by its name), and what a job waits for or
 * is gated on. A teammate changing the build or the deploy checks against this.
 */
export function ciNote(files: readonly ReadFile[]): Proposal[] {
  const workflow = files.find((f) => /(?:^|\/)\.github\/workflows\/[^/]+\.ya?ml$/.test(f.path));
  if (!workflow) return [];
  const jobs = jobsOf(workflow.lines);
  const commands = jobs.flatMap((j) => j.steps.filter((s) => s.command));
  if (jobs.flatMap((j) => j.steps).length < 2 || commands.length === 0) return [];
  // Evidence needs a dozen characters to be found again: `run: npm ci` alone is too short.
  const quotes = [...commands.map((c) => c.line), ...workflow.lines.map((l) => l.trim())]
    .filter((l) => l.length >= 12)
    .slice(0, 2);
  if (quotes.length === 0) return [];
  const path = workflow.path.slice(workflow.path.indexOf('.github/'));
  const title = workflow.lines.map((l) => WORKFLOW_NAME.exec(l)?.[1]).find(Boolean);
  const described = jobs.slice(0, 3).map((j) => {
    const steps = j.steps.slice(0, 8).map((s) => s.text);
    const more = j.steps.length > 8 ? `; and ${j.steps.length - 8} more` : '';
    const head = jobs.length > 1 ? `Job ${inCode(j.name)}${j.gate.length ? ` (${j.gate.join(', ')})` : ''}: ` : '';
    return `${head}${steps.join('; ')}${more}.`;
  });
  return [
    propose(6, 'ArchitectureNote', {
      title: `What the ${title ? `${inCode(title.replace(/^["']|["']$/g, ''))} ` : ''}workflow runs (${inCode(path)})`,
      facts: `Steps, in order. ${described.join(' ')}`,
      about: `ci workflow steps ${path}`,
      files: [path],
      confidence: 0.7,
      evidence: quotes.map((quote) => ({ eventId: workflow.event.eventId, quote })),
    }),
  ];
}
