import type { Connection } from './connection';

/** What every command gets: where Memex is and how to print. */
export interface CommandContext {
  connection: Connection;
  /** One line to stdout. */
  out: (line: string) => void;
  /** The checkout the CLI runs from. */
  repoRoot: string;
  /** This CLI's executable, written into the hook and MCP commands. */
  bin: string;
}

/** A command's run: its arguments after the command's name; resolves to the exit code. */
export type Command = (args: string[], context: CommandContext) => Promise<number>;

/** The value as JSON for scripts, or the text for people. */
export function emit(context: CommandContext, json: boolean | undefined, value: unknown, text: () => string): void {
  context.out(json ? JSON.stringify(value, null, 2) : text());
}
