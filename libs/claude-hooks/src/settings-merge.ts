import { HOOK_EVENTS, type HookEvent } from './hook-payload';

/** The name of Memex's entry in `.mcp.json` (and so the `mcp__memex__*` tool prefix). */
export const MCP_SERVER_KEY = 'memex';
/**
 * Seconds Claude Code gives each hook. The client keeps itself to 2 s; the margin covers Node's
 * start on a slow machine, and a per-hook timeout is what lifts SessionEnd's 1.5 s default.
 */
export const HOOK_TIMEOUT_SECONDS = 5;

type Json = Record<string, unknown>;

export class SettingsShapeError extends Error {}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A path as one POSIX shell word (hook commands run through a shell). */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export function hookCommand(bin: string, event: HookEvent): string {
  return `${shellWord(bin)} hook ${event}`;
}

/**
 * Ours whatever path the checkout had when it was installed: exactly `<…/memex> hook <Event>`.
 * A command that does more (`… hook Stop && notify-send done`) is the user's, left alone.
 */
export function isMemexHook(handler: unknown, event: HookEvent): boolean {
  if (!isObject(handler) || handler.type !== 'command' || typeof handler.command !== 'string') return false;
  return new RegExp(`^(?:'[^']*memex'|\\S*memex)\\s+hook\\s+${event}\\s*$`).test(handler.command);
}

function memexHandler(bin: string, event: HookEvent): Json {
  return { type: 'command', command: hookCommand(bin, event), timeout: HOOK_TIMEOUT_SECONDS };
}

/** Every tool call's result is worth capturing; the other events take no matcher. */
function matcherFor(event: HookEvent): Json {
  return event === 'PostToolUse' ? { matcher: '*' } : {};
}

/** `value` (a copy) when it is an object, `{}` when absent; anything else is refused. */
function objectOrEmpty(value: unknown, what: string): Json {
  if (value === undefined) return {};
  if (!isObject(value)) throw new SettingsShapeError(`${what} is not an object`);
  return structuredClone(value);
}

export interface Merged<T> {
  value: T;
  changed: boolean;
}

/**
 * `.claude/settings.json` with Memex's hooks and its MCP server enabled. Everything already
 * there stays: other hooks, other keys, other servers. Memex's own handlers are updated in
 * place (a moved checkout), never added twice. A shape Claude Code would not accept either is
 * refused rather than overwritten.
 */
export function mergeClaudeSettings(existing: unknown, bin: string): Merged<Json> {
  const settings = objectOrEmpty(existing, 'settings');
  const hooks = objectOrEmpty(settings.hooks, '"hooks"');
  for (const event of HOOK_EVENTS) {
    const groups = hooks[event] ?? [];
    if (!Array.isArray(groups)) throw new SettingsShapeError(`"hooks.${event}" is not an array`);
    const wanted = memexHandler(bin, event);
    let found = false;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      group.hooks = group.hooks.map((handler: unknown) => {
        if (!isMemexHook(handler, event)) return handler;
        found = true;
        // The command follows the checkout; a timeout the user set stays.
        return { ...wanted, ...(handler as Json), command: wanted.command };
      });
    }
    if (!found) groups.push({ ...matcherFor(event), hooks: [wanted] });
    hooks[event] = groups;
  }
  settings.hooks = hooks;

  const enabled = settings.enabledMcpjsonServers ?? [];
  if (!Array.isArray(enabled)) throw new SettingsShapeError('"enabledMcpjsonServers" is not an array');
  if (!enabled.includes(MCP_SERVER_KEY)) enabled.push(MCP_SERVER_KEY);
  settings.enabledMcpjsonServers = enabled;

  return { value: settings, changed: JSON.stringify(settings) !== JSON.stringify(existing ?? {}) };
}

/**
 * The variables `.claude/settings.local.json` sets for a session (its hooks and, through
 * `.mcp.json`'s expansion, the MCP server): which Memex, with which project's key, and where
 * this machine's `memex` is. They are the machine's and the person's, never committed.
 */
export interface MemexEnv {
  MEMEX_BIN: string;
  MEMEX_URL?: string;
  MEMEX_API_KEY?: string;
}

/**
 * `.mcp.json` (Claude Code's project-scoped MCP servers, a committed file) with Memex's stdio
 * server, written the same on every machine: the command and the connection come from the
 * session's environment (`${MEMEX_BIN:-memex}`, set by settings.local.json), never a path of
 * this machine. Fields a user added to the entry are kept.
 */
export function mergeMcpConfig(existing: unknown): Merged<Json> {
  const config = objectOrEmpty(existing, '.mcp.json');
  const servers = objectOrEmpty(config.mcpServers, '"mcpServers"');
  const current = isObject(servers[MCP_SERVER_KEY]) ? (servers[MCP_SERVER_KEY] as Json) : {};
  // Someone chose the HTTP endpoint (`/mcp` on brain-api): that entry is theirs.
  if (current.url !== undefined || (current.type !== undefined && current.type !== 'stdio')) {
    return { value: config, changed: false };
  }
  const env = objectOrEmpty(current.env, `"mcpServers.${MCP_SERVER_KEY}.env"`);
  servers[MCP_SERVER_KEY] = {
    ...current,
    type: 'stdio',
    command: '${MEMEX_BIN:-memex}',
    args: ['mcp'],
    // Empty when the session does not set them: the server then reads the local project's key.
    env: { ...env, MEMEX_URL: '${MEMEX_URL:-}', MEMEX_API_KEY: '${MEMEX_API_KEY:-}' },
  };
  config.mcpServers = servers;
  return { value: config, changed: JSON.stringify(config) !== JSON.stringify(existing ?? {}) };
}

/** Settings (`settings.local.json`) with Memex's variables set; other variables stay. */
export function withMemexEnv(settings: Json, env: MemexEnv): Json {
  const current = objectOrEmpty(settings.env, '"env"');
  const next: Json = { ...current };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) next[name] = value;
  return { ...settings, env: next };
}

/**
 * A committed `.claude/settings.json` without the hooks an older `memex init` put there (they
 * named this machine's checkout): they now live in settings.local.json. Everything else stays.
 */
export function withoutMemexHooks(existing: unknown): Merged<Json> {
  const settings = objectOrEmpty(existing, 'settings');
  if (settings.hooks === undefined) return { value: settings, changed: false };
  const hooks = objectOrEmpty(settings.hooks, '"hooks"');
  for (const event of HOOK_EVENTS) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    const kept = groups.flatMap((group: unknown) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return [group];
      const handlers = group.hooks.filter((handler: unknown) => !isMemexHook(handler, event));
      return handlers.length ? [{ ...group, hooks: handlers }] : [];
    });
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  if (Object.keys(hooks).length) settings.hooks = hooks;
  else delete settings.hooks;
  return { value: settings, changed: JSON.stringify(settings) !== JSON.stringify(existing ?? {}) };
}
