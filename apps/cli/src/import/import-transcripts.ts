import { readFile, readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { completeLines } from '@memex/claude-hooks';
import { eventsOfLines } from '@memex/transcript';
import type { AcceptedBatch } from '@memex/domain';
import { Redactor } from '@memex/redaction';
import { Api } from '../api';
import { parseCommand } from '../args';
import { CliError, usageError } from '../cli-error';
import { emit, type CommandContext } from '../command';
import { hookConfig } from '../hook/hook-config';
import { projectDir } from '../hook/current-session';
import { redactionSettings } from '../hook/redaction-settings';
import { redactedBatches } from '../transcript-events';
import { claudeProjectFolder, isSessionTranscript, progressBar } from './claude-projects';

export const IMPORT_USAGE = 'memex import [<dir>] [--json]';

/** What one transcript gave. */
export interface SessionImport {
  sessionId: string;
  file: string;
  /** Events read and sent. */
  events: number;
  /** New to Memex. */
  accepted: number;
  /** Already there (sent by a hook or an earlier import): ingest keeps one of each event id. */
  duplicates: number;
  /** Events ingest would refuse, left out as a hook leaves them out. */
  dropped: number;
}

/** A transcript Claude Code has not written for this long belongs to a session that is over. */
const ENDED_AFTER_MS = 10 * 60_000;

async function transcriptsIn(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`no transcripts at ${dir} (Claude Code has not run in this project?)`);
    throw new CliError(`cannot read ${dir}: ${(error as Error).message}`);
  }
  const files = names.filter(isSessionTranscript).map((name) => join(dir, name));
  // Oldest first: sessions reach Memex in the order they happened.
  const times = await Promise.all(files.map(async (file) => (await stat(file)).mtimeMs));
  return files
    .map((file, i) => ({ file, at: times[i]! }))
    .sort((a, b) => a.at - b.at || (a.file < b.file ? -1 : 1))
    .map((f) => f.file);
}

/**
 * One transcript through the path a hook takes: its complete lines to events (ids from the
 * lines' uuids), redacted, in batches to POST /api/v2/events under the session id Claude
 * Code gave it (the file's name), so events a hook already sent count as duplicates. A session
 * that gained events is completed so it gets enriched, and as ended, as SessionEnd does, when
 * its transcript has not been written for a while: a session still running is not over.
 */
async function importTranscript(api: Api, file: string, redactor: Redactor): Promise<SessionImport> {
  const sessionId = basename(file, '.jsonl');
  const ended = Date.now() - (await stat(file)).mtimeMs >= ENDED_AFTER_MS;
  const { lines } = completeLines(await readFile(file));
  const read = eventsOfLines(lines, []);
  const result: SessionImport = {
    sessionId,
    file,
    events: read.events.length,
    accepted: 0,
    duplicates: 0,
    dropped: read.dropped,
  };
  try {
    for (const body of await redactedBatches(read, redactor)) {
      const accepted = await api.post<AcceptedBatch>('/api/v2/events', { sessionId, ...body });
      result.accepted += accepted.accepted;
      result.duplicates += accepted.duplicates;
    }
    if (result.accepted > 0) {
      await api.post(`/api/v2/sessions/${encodeURIComponent(sessionId)}/complete`, ended ? { ended: true } : {});
    }
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new CliError(
      `${file}: ${error.message}\n(the sessions before it were sent; importing again skips what Memex has)`,
    );
  }
  return result;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * `memex import [<dir>]`: a person's Claude Code sessions from before Memex captured them (by
 * default this project's folder under ~/.claude/projects). Importing again sends nothing new.
 */
export async function runImport(args: string[], context: CommandContext): Promise<number> {
  const { values, positionals } = parseCommand(args, {}, IMPORT_USAGE);
  if (positionals.length > 1) throw usageError(`unexpected ${positionals.slice(1).join(' ')}`, IMPORT_USAGE);
  const dir = positionals[0]
    ? resolve(positionals[0])
    : claudeProjectFolder(
        resolve(projectDir(process.env, process.cwd())),
        process.env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude'),
      );
  const files = await transcriptsIn(dir);
  // Only the ingest routes, which take a project key: never the admin token.
  const api = new Api(context.connection, undefined, 'project');
  const redactor = new Redactor(redactionSettings(hookConfig(process.env).redactionEnv).redaction);
  const bar = !values.json && process.stdout.isTTY === true;
  // A terminal that does not say its width (0) gets the usual 80 columns.
  const width = () => (process.stdout.columns || 80) - 1;
  const sessions: SessionImport[] = [];
  if (bar) process.stdout.write(progressBar(0, files.length, 'sessions', width()));
  for (const file of files) {
    const session = await importTranscript(api, file, redactor);
    sessions.push(session);
    if (bar) process.stdout.write(`\r${progressBar(sessions.length, files.length, 'sessions', width())}`);
    else if (!values.json) {
      context.out(
        `${session.sessionId}: ${count(session.events)} events (${count(session.accepted)} new, ${count(session.duplicates)} already there)`,
      );
    }
  }
  if (bar) process.stdout.write('\n');
  const total = (key: 'events' | 'accepted' | 'duplicates' | 'dropped') => sessions.reduce((n, s) => n + s[key], 0);
  const summary = {
    dir,
    sessions,
    events: total('events'),
    accepted: total('accepted'),
    duplicates: total('duplicates'),
    dropped: total('dropped'),
  };
  emit(
    context,
    values.json,
    summary,
    () =>
      `Imported ${count(sessions.length)} session(s) from ${dir}: ${count(summary.events)} events, ${count(summary.accepted)} new, ${count(summary.duplicates)} already there` +
      (summary.dropped ? `; ${count(summary.dropped)} event(s) ingest would refuse were skipped` : '') +
      '.',
  );
  return 0;
}
