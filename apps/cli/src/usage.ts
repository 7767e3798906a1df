import { BRAIN_USAGE } from './commands/brain';
import { HYGIENE_USAGE } from './commands/hygiene';
import { ITEM_USAGE } from './commands/item';
import { ITEMS_USAGE } from './commands/items';
import { MOVE_USAGE } from './commands/move';
import { REDACT_USAGE } from './commands/redact';
import { REMEMBER_USAGE } from './commands/remember';
import { SEARCH_USAGE } from './commands/search';
import { DOCTOR_USAGE } from './doctor';
import { IMPORT_USAGE } from './import/import-transcripts';
import { INIT_USAGE } from './init';
import { STATUS_USAGE } from './status';

const HOOK_USAGE = 'memex hook <SessionStart|UserPromptSubmit|PostToolUse|PreCompact|Stop|SessionEnd>';
const MCP_USAGE = 'memex mcp';

const USAGES: Record<string, string> = {
  brain: BRAIN_USAGE,
  search: SEARCH_USAGE,
  items: ITEMS_USAGE,
  item: ITEM_USAGE,
  remember: REMEMBER_USAGE,
  import: IMPORT_USAGE,
  status: STATUS_USAGE,
  hygiene: HYGIENE_USAGE,
  redact: REDACT_USAGE,
  init: INIT_USAGE,
  hook: HOOK_USAGE,
  mcp: MCP_USAGE,
  doctor: DOCTOR_USAGE,
  move: MOVE_USAGE,
};

export function usageOf(command: string): string {
  return USAGES[command] ?? command;
}

export const USAGE = `usage: memex <command>   (memex <command> --help for its flags)

  brain        the project's brain, as an assistant reads it at a session's start
  search       the project's memory ranked for a question
  items        the project's items, newest first, a page at a time
  item         one item and its history
  remember     write an item yourself (active at once, confidence 1)
  import       send this project's earlier Claude Code sessions (~/.claude/projects) to Memex
  status       the server, the project's sessions and items, the last enrichment, model spend today
  hygiene      run hygiene passes; apply, reject or revert what they proposed or changed
  redact       find (--apply: replace) secrets stored before redaction existed
  init         print (--write: write) the Claude Code set-up, making the repository its own project
  hook         a Claude Code hook, payload on stdin (installed by init)
  mcp          the MCP server on stdio (installed by init)
  doctor       check the server, key, project, hooks, spool and enrichment engine, with fixes
  move         copy an embedded Memex (MEMEX_HOME) into a PostgreSQL server, to run in server mode

Every command but hook and mcp takes --json (for scripts) and prints tables otherwise.

environment: MEMEX_URL, MEMEX_API_KEY or MEMEX_ADMIN_TOKEN, MEMEX_LOCAL_STATE_DIR,
  MEMEX_HOOK_STATE_DIR, MEMEX_HOOK_BUDGET_MS, MEMEX_HOOK_BRAIN_TOKENS, MEMEX_HOOK_CONTEXT_TOKENS,
  MEMEX_HOOK_REFLECT, MEMEX_WAIT_MS, CLAUDE_CONFIG_DIR`;
