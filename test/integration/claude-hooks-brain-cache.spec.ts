import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { basename, join } from 'node:path';
import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { HttpRecorder } from '../support/http-recorder';
import { useTestApp } from '../support/use-test-app';
import { request } from '../support/http';
import { context, hookHarness, newSession } from '../support/hook-sessions';

const ctx = useTestApp([IngestApiModule, BrainApiModule]);
const { hook } = hookHarness(ctx);

describe('SessionStart keeps the brain it printed', () => {
  let recorder: HttpRecorder;
  let hung: Server;
  let hungUrl: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    recorder = await new HttpRecorder(ctx.server.url).start();
    // Accepts connections and never answers.
    hung = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    hungUrl = `http://127.0.0.1:${(hung.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await recorder.stop();
    sockets.forEach((s) => s.destroy());
    await new Promise((resolve) => hung.close(resolve));
  });

  /** A new session of its own (no transcript yet) sharing `stateDir`, as the sessions of one machine do. */
  const start = (stateDir: string, overrides: Record<string, string> = {}) =>
    hook({ ...newSession(), stateDir }, 'SessionStart', { MEMEX_URL: recorder.url, ...overrides });
  const cacheFiles = (stateDir: string) => readdirSync(join(stateDir, 'brain')).map((n) => join(stateDir, 'brain', n));

  it('asks with the ETag of the brain it printed last, and prints that brain again on a 304', async () => {
    const stateDir = newSession().stateDir;
    const first = await start(stateDir);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(context(first).additionalContext).toContain('# Project brain');
    const [sent] = recorder.brainRequests().slice(-1);
    expect(sent).toMatchObject({ status: 200 });
    expect(sent!.headers['if-none-match']).toBeUndefined();
    expect(sent!.answer.etag).toMatch(/^"[^"]+"$/);

    const second = await start(stateDir);
    expect(second).toMatchObject({ code: 0, stderr: '' });
    const [asked] = recorder.brainRequests().slice(-1);
    expect(asked!.headers['if-none-match']).toBe(sent!.answer.etag);
    expect(asked!.status).toBe(304);
    expect(second.stdout).toBe(first.stdout);
    // The key names the cache file by its digest, as it names the spool: the key itself is not on disk.
    const [file] = cacheFiles(stateDir);
    expect(basename(file!)).toMatch(/^[0-9a-f]{16}\.json$/);
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    expect(readFileSync(file!, 'utf8')).not.toContain(ctx.project.apiKey);

    // A changed brain is a new ETag: the new one is printed, and kept.
    const title = `Cart totals are rounded half-even ${process.pid}`;
    const made = await request(`${ctx.server.url}/api/v2/memory-items`, {
      key: ctx.project.apiKey,
      body: { type: 'Convention', title, facts: 'Cart totals round half-even.' },
    });
    expect(made.status).toBe(201);
    const third = await start(stateDir);
    expect(recorder.brainRequests().slice(-1)[0]).toMatchObject({ status: 200 });
    expect(context(third).additionalContext).toContain(title);
    const fourth = await start(stateDir);
    expect(recorder.brainRequests().slice(-1)[0]).toMatchObject({ status: 304 });
    expect(fourth.stdout).toBe(third.stdout);
  });

  it('prints the cached brain, said to be stale, when the server never answers, and returns within its budget', async () => {
    const stateDir = newSession().stateDir;
    const fresh = await start(stateDir);
    const brain = context(fresh).additionalContext.split('\n\n').slice(1).join('\n\n');
    expect(brain).toContain('# Project brain');

    const run = await start(stateDir, { MEMEX_URL: hungUrl, MEMEX_HOOK_BUDGET_MS: '600' });
    expect(run.code).toBe(0);
    expect(context(run).additionalContext).toContain(brain);
    expect(context(run).additionalContext).toMatch(
      /Memex is not answering right now .*: this is the brain as it was on/,
    );
    expect(run.stderr).toMatch(/did not answer in time; printed the brain cached on /);
    // Its budget is 600 ms; without giving up, it would wait for the hung server until the test timed out.
    expect(run.ms).toBeLessThan(5000);
  });

  it('ignores a cache file that is not a brain, and writes a good one over it', async () => {
    const stateDir = newSession().stateDir;
    await start(stateDir);
    const [file] = cacheFiles(stateDir);
    writeFileSync(file!, '{"etag":"\\"abc-md\\"","document":');

    const down = await start(stateDir, { MEMEX_URL: hungUrl, MEMEX_HOOK_BUDGET_MS: '400' });
    expect(down).toMatchObject({ code: 0, stdout: '' });

    const up = await start(stateDir);
    expect(up.code).toBe(0);
    expect(context(up).additionalContext).toContain('# Project brain');
    const [asked] = recorder.brainRequests().slice(-1);
    expect(asked!.headers['if-none-match']).toBeUndefined();
    expect(asked!.status).toBe(200);
    expect(JSON.parse(readFileSync(file!, 'utf8'))).toMatchObject({ etag: asked!.answer.etag });
  });
});
