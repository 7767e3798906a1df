import { parseArgs } from 'node:util';
import { usageError } from './cli-error';

/**
 * A command's flags by kind, so each command names them on a line rather than spelling out
 * parseArgs' option objects: `values` flags take one, `switches` none, and `lists` a value
 * each time they are given.
 */
interface Flags<T extends string, S extends string, L extends string> {
  values?: readonly T[];
  switches?: readonly S[];
  lists?: readonly L[];
}

/** parseArgs' options for `flags`, with `--json` and `--help`, which every command knows. */
function parseOptions<T extends string, S extends string, L extends string>(flags: Flags<T, S, L>) {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {
    json: { type: 'boolean' },
    help: { type: 'boolean' },
  };
  for (const name of flags.values ?? []) options[name] = { type: 'string' };
  for (const name of flags.switches ?? []) options[name] = { type: 'boolean' };
  for (const name of flags.lists ?? []) options[name] = { type: 'string', multiple: true };
  return options as { [K in T]: { type: 'string' } } & { [K in S | 'json' | 'help']: { type: 'boolean' } } & {
    [K in L]: { type: 'string'; multiple: true };
  };
}

/**
 * A command's flags and words. Unknown flags and missing values are usage errors that show the
 * command's usage.
 */
export function parseCommand<T extends string = never, S extends string = never, L extends string = never>(
  args: string[],
  flags: Flags<T, S, L>,
  usage: string,
) {
  try {
    return parseArgs({ args, options: parseOptions(flags), allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError((error as Error).message, usage);
  }
}

/** The flags of a command that takes no words: any word is a usage error. */
export function parseFlags<T extends string = never, S extends string = never, L extends string = never>(
  args: string[],
  flags: Flags<T, S, L>,
  usage: string,
) {
  const { values, positionals } = parseCommand(args, flags, usage);
  if (positionals.length) throw usageError(`unexpected ${positionals.join(' ')}`, usage);
  return values;
}

/** A flag's value as a whole number within bounds, or a usage error naming the flag. */
export function intFlag(value: string | undefined, name: string, usage: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw usageError(`--${name} must be a whole number, not ${JSON.stringify(value)}`, usage);
  return Number(value);
}
