import type { EngineEvent } from '../candidate';
import { ciNote } from './ci-workflow';
import { packageNote } from './package-scripts';
import type { Proposal } from './proposal';
import { pyprojectNote } from './pyproject';
import { readFiles } from './read-files';

/**
 * What the project files a session opened say about how the project is built and checked:
 * the CI workflow's steps, the package scripts, the Python tools configured. Sessions read them
 * to learn exactly this, and a teammate's next session needs it again.
 */
export function projectFiles(events: readonly EngineEvent[]): Proposal[] {
  const files = readFiles(events);
  if (files.length === 0) return [];
  return [...ciNote(files), ...packageNote(files), ...pyprojectNote(files)];
}
