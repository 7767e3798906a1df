import { join } from 'node:path';

/**
 * Where Claude Code keeps a project's session transcripts: `<config>/projects/<name>`, the name
 * being the project's absolute path with every character but letters and digits replaced by
 * `-` (`/home/me/shop.api` → `-home-me-shop-api`). CLAUDE_CONFIG_DIR moves `<config>` from
 * `~/.claude`. (Names over 200 characters, which Claude Code shortens with a hash, are not
 * derived: give such a folder to `memex import <dir>`.)
 */
export function claudeProjectFolder(projectPath: string, configDir: string): string {
  return join(configDir, 'projects', projectPath.replace(/[^A-Za-z0-9]/g, '-'));
}

/**
 * The session transcripts of a project folder, by file name: `<session-id>.jsonl`. Subagent
 * transcripts (`agent-<id>.jsonl` in older versions; a session's `subagents/` folder in newer
 * ones) are not sessions of their own and hooks never send them, so they stay out.
 */
export function isSessionTranscript(fileName: string): boolean {
  return fileName.endsWith('.jsonl') && !fileName.startsWith('agent-') && fileName.length > '.jsonl'.length;
}

/** `[#######-------] 7/14 sessions`, within `width` characters when they leave the bar 10 at least. */
export function progressBar(done: number, total: number, label: string, width = 80): string {
  const counts = ` ${done}/${total} ${label}`;
  const barWidth = Math.max(10, Math.min(40, width - counts.length - 2));
  const filled = total === 0 ? barWidth : Math.round((done / total) * barWidth);
  return `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]${counts}`;
}
