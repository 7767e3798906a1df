import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProjectRepository } from '@memex/db';
import { hashApiKey } from '@memex/domain';

export interface LocalProject {
  projectId: string;
  apiKey: string;
  created: boolean;
}

const FILE = 'local-project.json';

/**
 * The project `npm start` prints. Keys are stored hashed, so the plain key of the local
 * project lives in a private file beside the checkout (like a CLI credentials file) and is
 * reused while it still opens its project; otherwise a new project is made.
 */
export async function ensureLocalProject(
  projects: ProjectRepository,
  stateDir: string,
  /** Where this server answers; saved so the CLI and hooks find it whatever PORT is. */
  url: string,
): Promise<LocalProject> {
  const path = join(stateDir, FILE);
  try {
    const saved = JSON.parse(await readFile(path, 'utf8')) as { projectId?: string; apiKey?: string };
    if (saved.projectId && saved.apiKey) {
      const owner = await projects.findProjectIdByKeyHash(hashApiKey(saved.apiKey));
      if (owner === saved.projectId) {
        await save(path, stateDir, { projectId: saved.projectId, apiKey: saved.apiKey, url });
        return { projectId: saved.projectId, apiKey: saved.apiKey, created: false };
      }
    }
  } catch {
    // No file yet, or an unreadable one: make a fresh project below.
  }
  const { projectId, apiKey } = await projects.createWithKey('local');
  await save(path, stateDir, { projectId, apiKey, url });
  return { projectId, apiKey, created: true };
}

async function save(path: string, stateDir: string, value: { projectId: string; apiKey: string; url: string }) {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
}
