/**
 * The payload of the hook that handed its reading and sending over, in the environment of the
 * process that does them; that process prints nothing.
 */
const BACKGROUND_INPUT_ENV = 'MEMEX_HOOK_BACKGROUND_INPUT';

/** The handed-over payload, when this process is the one doing a hook's work in the background. */
export function backgroundInput(env: NodeJS.ProcessEnv): string | undefined {
  return env[BACKGROUND_INPUT_ENV] || undefined;
}

/** Starts the rest of a hook's work elsewhere. */
export type HandOff = (event: string, input: string) => Promise<void>;

/**
 * Runs `memex hook <event>` again as a process of its own, the payload in its environment: in
 * a session of its own (a hook timeout ends the hook's process group, not this one), holding
 * none of the pipes Claude Code waits on, so the hook exits while it works. It has any hook's
 * time budget and hard stop; what it does not send waits in the spool for the next hook.
 */
export const handOffToBackground: HandOff = async (event, input) => {
  const launcher = process.argv[1];
  if (!launcher) return;
  // Loaded here: every other hook run does without child_process (about 2 ms to load).
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [launcher, 'hook', event], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, [BACKGROUND_INPUT_ENV]: input },
  });
  // Could not start: the work stays where it is (the transcript, the spool) for the next hook.
  child.once('error', () => undefined);
  child.unref();
};
