import { readFileSync } from 'node:fs';

/**
 * The top entries of a V8 CPU profile (`--cpu-prof`, e.g. `BENCH_NODE_ARGS="--cpu-prof
 * --cpu-prof-dir=/tmp/prof" npm run bench:brain`) by self time, with each one's share:
 * `node dist/bench/support/profile-top.js <file.cpuprofile> [count]`.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

function main(): void {
  const [file, count = '15'] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-top <file.cpuprofile> [count]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    const { functionName, url, lineNumber } = node.callFrame;
    // node_modules/<package>/… or the file's last two parts: enough to say whose code it is.
    const where = url.includes('node_modules/')
      ? url.slice(url.lastIndexOf('node_modules/') + 13)
      : url.split('/').slice(-2).join('/');
    const key = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + delta);
  });
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled; top ${count} by self time`);
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(count))) {
    console.log(`  ${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`);
  }
}

main();
