import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const LOCAL_ADMIN_FILE = 'local-admin.json';

/**
 * The admin token of one developer's embedded Memex, when MEMEX_ADMIN_TOKEN is not set: made
 * once, kept beside the local key in a file private to the user, so `memex init` can create a
 * project per repository and the dashboard's Health page opens, without a secret to invent.
 * A server (MEMEX_MODE=server) never makes one: its operators set the token.
 */
export async function ensureLocalAdminToken(stateDir: string): Promise<string> {
  const path = join(stateDir, LOCAL_ADMIN_FILE);
  try {
    const saved = JSON.parse(await readFile(path, 'utf8')) as { adminToken?: unknown };
    if (typeof saved.adminToken === 'string' && saved.adminToken.length >= 16) return saved.adminToken;
  } catch {
    // None yet, or unreadable: a new one below.
  }
  const adminToken = randomBytes(32).toString('base64url');
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify({ adminToken }, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
  return adminToken;
}
