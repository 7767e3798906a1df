import { spawn } from 'node:child_process';

/**
 * Asks `url` again and again, 10 ms after each answer, from a process of its own: probes from
 * the caller's process would wait for its event loop (in a test, the app's) and never be sent
 * while a redaction held it. Each probe is [sent at (ms since the epoch), answered in (ms)].
 */
const PROBER = `
  const probes = [];
  let stop = false;
  process.stdin.on('end', () => (stop = true)).resume();
  (async () => {
    while (!stop) {
      const sent = performance.now();
      const res = await fetch(process.argv[1]);
      await res.text();
      if (res.status !== 200) throw new Error('status ' + res.status);
      probes.push([performance.timeOrigin + sent, performance.now() - sent]);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    process.stdout.write(JSON.stringify(probes));
  })();`;

export type Probe = [sentAt: number, answeredInMs: number];

/** Starts probing `url`; `stop` ends it and gives every probe (it throws if one was not a 200). */
export function probeUrl(url: string): { stop: () => Promise<Probe[]> } {
  const child = spawn(process.execPath, ['-e', PROBER, url], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    async stop() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`the prober exited with ${code}`);
      return JSON.parse(out) as Probe[];
    },
  };
}

/**
 * What the probes say of the span from `started` to `answered` (ms since the epoch): the
 * latencies of those sent within it, and its longest stretch in which no probe was answered.
 */
export function probesWithin(
  all: Probe[],
  started: number,
  answered: number,
): { latencies: number[]; longestSilence: number } {
  const latencies = all.filter(([sent]) => sent >= started && sent < answered).map(([, ms]) => ms);
  const times = [
    started,
    ...all.map(([sent, ms]) => sent + ms).filter((at) => at > started && at < answered),
    answered,
  ].sort((a, b) => a - b);
  const longestSilence = Math.max(...times.slice(1).map((at, i) => at - times[i]!));
  return { latencies, longestSilence };
}
