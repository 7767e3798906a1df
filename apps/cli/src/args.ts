import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from './cli-error';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * A command's flags and words, with `--json` and `--help` known to every command. Unknown
 * flags and missing values are usage errors that show the command's usage.
 */
export function parseCommand<O extends Options>(args: string[], options: O, usage: string) {
  try {
    return parseArgs({
      args,
      options: { ...options, json: { type: 'boolean' }, help: { type: 'boolean' } } as O & {
        json: { type: 'boolean' };
        help: { type: 'boolean' };
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw usageError((error as Error).message, usage);
  }
}

/** A flag's value as a whole number within bounds, or a usage error naming the flag. */
export function intFlag(value: string | undefined, name: string, usage: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw usageError(`--${name} must be a whole number, not ${JSON.stringify(value)}`, usage);
  return Number(value);
}
