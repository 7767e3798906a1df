import { CliError } from './cli-error';
import type { Command } from './command';
import { resolveConnection } from './connection';

export interface CliContext {
  /** The checkout the CLI runs from (its `.memex` holds the local project). */
  repoRoot: string;
  /** This CLI's executable, written into the hook and MCP commands. */
  bin: string;
}

/** The commands past `hook`, each loaded only when run: a hook's start-up loads none of them. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  brain: async () => (await import('./commands/brain')).runBrain,
  search: async () => (await import('./commands/search')).runSearch,
  items: async () => (await import('./commands/items')).runItems,
  item: async () => (await import('./commands/item')).runItem,
  remember: async () => (await import('./commands/remember')).runRemember,
  import: async () => (await import('./import/import-transcripts')).runImport,
  status: async () => (await import('./status')).runStatus,
  hygiene: async () => (await import('./commands/hygiene')).runHygiene,
  redact: async () => (await import('./commands/redact')).runRedact,
  init: async () => (await import('./init')).runInitCommand,
  move: async () => (await import('./commands/move')).runMove,
  // Loaded only here: the model clients are for the doctor, never for a hook.
  doctor: async () => (await import('./doctor')).runDoctorCommand,
};

/** Resolves to an exit code, or to undefined for a server (mcp) that lives until its client closes stdin. */
export async function main(argv: string[], context: CliContext): Promise<number | undefined> {
  const [command, ...rest] = argv;
  // bin/memex runs hooks from hook-main.js, which loads less; this serves main()'s other callers.
  if (command === 'hook') return (await import('./hook-main')).hook(rest[0], context.repoRoot);
  const connection = resolveConnection(process.env, context.repoRoot);
  if (command === 'mcp') {
    // Loaded only here: the MCP SDK would add a third to every hook's start-up.
    const { serveMcpOnStdio } = await import('./mcp-stdio');
    await serveMcpOnStdio(connection);
    // The transport keeps the process alive until the client closes stdin.
    return undefined;
  }
  const { USAGE } = await import('./usage');
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) throw new CliError(`unknown command ${command}\n\n${USAGE}`, 2);
  const run = await load();
  if (rest.includes('--help')) {
    const { usageOf } = await import('./usage');
    process.stdout.write(`usage: ${usageOf(command)}\n`);
    return 0;
  }
  return run(rest, {
    connection,
    repoRoot: context.repoRoot,
    bin: context.bin,
    out: (line) => process.stdout.write(`${line}\n`),
  });
}

/**
 * bin/memex's entry: runs the command and exits with its code once stdout is flushed. A
 * CliError is the person's to act on: its message, and its exit code; anything else is a
 * bug: its stack, and 70.
 */
export function run(argv: string[], context: CliContext): void {
  main(argv, context).then(
    (code) => {
      if (code !== undefined) process.stdout.write('', () => process.exit(code));
    },
    (error: unknown) => {
      const command = argv[0] && Object.hasOwn(COMMANDS, argv[0]) ? `memex ${argv[0]}` : 'memex';
      if (error instanceof CliError) process.stderr.write(`${command}: ${error.message}\n`);
      else process.stderr.write(`${command}: ${(error as Error)?.stack ?? String(error)}\n`);
      process.exit(error instanceof CliError ? error.exitCode : 70);
    },
  );
}
