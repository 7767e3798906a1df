/** A failure the person can act on: its message is printed as is, and the CLI exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A command line the CLI cannot read: exit code 2, as for any usage error. */
export function usageError(message: string, usage: string): CliError {
  return new CliError(`${message}\n\nusage: ${usage}`, 2);
}
