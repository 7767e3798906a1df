import { resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from '@memex/config';
import { checkEngine, type EngineCheck } from '@memex/models';
import { parseFlags } from './args';
import type { CommandContext } from './command';
import type { Connection } from './connection';
import { setupChecks, setupLines } from './setup-checks';

export const DOCTOR_USAGE = 'memex doctor [--json] [--dir <repository>]';

export function doctorLines(check: EngineCheck): string[] {
  if (check.engine === 'local')
    return ['engine: local (no model: sessions are read by Memex itself; nothing to check)'];
  const head = `engine: ${check.engine}, model ${check.model} at ${check.target}`;
  if (!check.ok) return [head, `check: FAILED after ${check.ms} ms: ${check.problem}`];
  const tokens = check.usage ? `, ${check.usage.totalTokens} tokens` : '';
  const cost = check.usage?.costUsd !== undefined ? `, $${check.usage.costUsd.toFixed(4)}` : '';
  return [head, `check: ok in ${check.ms} ms${check.mode ? `, output mode ${check.mode}` : ''}${tokens}${cost}`];
}

/**
 * `memex doctor [--json]`: checks what a captured session needs, each with the fix when it
 * fails (the server answers, a key opens a project, this repository's hooks are installed,
 * nothing stuck in the spool), then reads the configuration as the worker does (its
 * environment) and asks the configured engine one tiny question, as enrichment would: which
 * output mode it takes, the model, the latency. Exit 0 only when everything passed.
 */
export async function runDoctor(
  json: boolean,
  out: (line: string) => void,
  setup: { connection: Connection; repoDir: string },
): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`memex doctor: ${error.message}\n`);
    return 2;
  }
  // The clients log for a server; a person reads the doctor's own lines.
  Logger.overrideLogger(false);
  const checks = await setupChecks(setup.connection, setup.repoDir, process.env);
  const check = await checkEngine(config);
  if (json) out(JSON.stringify({ setup: checks, ...check }, null, 2));
  else [...setupLines(checks), ...doctorLines(check)].forEach((line) => out(line));
  return check.ok && checks.every((c) => c.ok) ? 0 : 1;
}

export async function runDoctorCommand(args: string[], context: CommandContext): Promise<number> {
  const values = parseFlags(args, { values: ['dir'] }, DOCTOR_USAGE);
  return runDoctor(values.json ?? false, context.out, {
    connection: context.connection,
    repoDir: resolve(values.dir ?? process.cwd()),
  });
}
