import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ModelUsageRepository, ProjectRepository } from '@memex/db';
import { generateApiKey } from '@memex/domain';
import { request } from '../support/http';
import { runAllInOne, type RunningProcess } from '../support/processes';
import { ADMIN_TOKEN, TEST_REDIS_URL, purgeQueuePrefix } from '../support/test-app';
import { createTestDatabase, uniqueName, type TestDatabase } from '../support/test-database';

/**
 * The dashboard in a real browser (Debian's Chromium, driven by playwright-core) against the
 * all-in-one process on the real PostgreSQL and Redis. Screenshots go to test-output/dashboard/.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = join(__dirname, '..', '..', 'test-output', 'dashboard');
// This machine's closed network makes Chromium's background connections fail and wait.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

jest.setTimeout(60_000);

let database: TestDatabase;
let server: RunningProcess;
let browser: BrowserContext;
let page: Page;
let url: string;
let key: string;
const prefix = uniqueName('memex_test');
const profile = mkdtempSync(join(tmpdir(), 'memex-chromium-'));
const state = mkdtempSync(join(tmpdir(), 'memex-state-'));
const ids: Record<string, string> = {};

async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await request<T>(`${url}${path}`, { key, ...init });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const brainText = () =>
  fetch(`${url}/api/v2/brain`, { headers: { authorization: `Bearer ${key}`, accept: 'text/markdown' } }).then((r) =>
    r.text(),
  );

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });

/** What the focus check reads of the page (the tests compile without the DOM's types). */
type FocusWindow = { document: { activeElement: { tagName: string } | null } };

/** Controls a screen reader could not name: no label, no aria-label, no text. Run in the page. */
const UNLABELLED = `[...document.querySelectorAll('input, select, textarea, button, a')]
  .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
    && !el.getAttribute('aria-labelledby') && !el.textContent.trim())
  .map((el) => el.outerHTML.slice(0, 100))`;

const TODAY = new Date().toISOString().slice(0, 10);

async function openSection(name: string) {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  database = await createTestDatabase();
  const project = await new ProjectRepository(database.db).createWithKey('web-app');
  key = project.apiKey;
  // What an LLM engine would have recorded today: the Health page shows it against the budget.
  await new ModelUsageRepository(database.db).record(project.projectId, TODAY, 'openai', {
    tokens: 1200,
    promptTokens: 1000,
    completionTokens: 200,
    costUsd: 0.0042,
    calls: 3,
  });
  // An embedded database is the one process's that runs on it: the test lets go of it first.
  if (database.home) await database.db.destroy();
  ({ run: server, url } = await runAllInOne({
    ...(database.home
      ? { MEMEX_MODE: 'embedded', MEMEX_HOME: database.home }
      : { DATABASE_URL: database.url, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix }),
    MEMEX_ADMIN_TOKEN: ADMIN_TOKEN,
    MEMEX_LOCAL_STATE_DIR: state,
    HYGIENE_INTERVAL_MS: '0',
    ENRICHMENT_DEBOUNCE_MS: '200',
    DB_POOL_SIZE: '4',
    LLM_DAILY_TOKENS: '50000',
  }));

  const create = (body: Record<string, unknown>) =>
    api<{ itemId: string }>('/api/v2/memory-items', { body }).then((i) => i.itemId);
  ids.webhook = await create({
    type: 'Decision',
    title: 'Webhook sender retries three times',
    facts: 'The webhook sender retries a failed delivery three times with exponential backoff.',
    rationale: 'Receivers answer 502 during their deploys.',
    files: ['src/webhooks/sender.ts'],
    tags: ['webhooks'],
    importance: 5,
  });
  ids.todoA = await create({
    type: 'Todo',
    title: 'Rotate the signing secret of the webhook sender',
    facts: 'Rotate the webhook signing secret before launch and store it in the vault.',
    dedupHint: 'todo:secrets:rotate-signing',
  });
  ids.todoB = await create({
    type: 'Todo',
    title: 'Rotate the webhook signing secret',
    facts: 'Before launch, rotate the signing secret of the webhook sender.',
    dedupHint: 'todo:secrets:rotate-webhook',
  });
  ids.convention = await create({
    type: 'Convention',
    title: 'Name files in kebab-case',
    facts: 'user-profile.ts, not UserProfile.ts. <script>alert("x")</script>',
    importance: 4,
  });

  // A captured session, which the enrichment worker turns into an item quoting its event.
  await api('/api/v2/events', {
    body: {
      sessionId: 'session-lint',
      branch: 'main',
      events: [
        {
          eventId: 'lint-rule-1',
          type: 'prompt',
          timestamp: '2026-11-21T09:30:00Z',
          content: 'Always run the linter before committing.',
        },
      ],
    },
  });
  const deadline = Date.now() + 20_000;
  while (!(await api<{ items: unknown[] }>('/api/v2/memory-items?type=Convention')).items.length) {
    if (Date.now() > deadline) throw new Error('the session was not enriched within 20 s');
    await new Promise((r) => setTimeout(r, 100));
  }

  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1366, height: 768 },
  });
  await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.on('dialog', (dialog) => void dialog.dismiss());
}, 90_000);

afterAll(async () => {
  await browser?.close();
  server?.child.kill('SIGTERM');
  await server?.exited;
  await database?.drop();
  if (!database?.home) await purgeQueuePrefix(prefix);
  rmSync(profile, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

describe('the dashboard in Chromium', () => {
  it('refuses a bad key with the API’s message, and keeps nothing', async () => {
    await page.goto(`${url}/ui/`);
    // Well formed, never issued.
    await page.getByLabel('API key or admin token').fill(generateApiKey());
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('UNAUTHORIZED invalid or revoked API key');
    await shot('01-bad-key');
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(await page.evaluate('localStorage.length')).toBe(0);
  });

  it('signs in with a project key and shows the brain, rendered, with its tokens and hash', async () => {
    await page.getByLabel('API key or admin token').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('brain-hash').waitFor();
    const document = page.getByRole('region', { name: 'Document' });
    await document.getByText('Webhook sender retries three times').first().waitFor();
    // Item text stays text: the script tag is shown, never run or parsed.
    expect(await document.locator('script').count()).toBe(0);
    expect(await document.textContent()).toContain('<script>');
    expect(await page.getByTestId('brain-hash').textContent()).toMatch(/^[0-9a-f]{16}$/);
    await page.getByRole('heading', { name: 'CLAUDE.md summary' }).waitFor();
    await shot('02-brain');
    await page.getByRole('button', { name: 'Copy summary' }).click();
    await page.getByRole('status').getByText('Summary copied to the clipboard.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toMatch(/^# web-app: memory summary/);
  });

  it('finds an item by search, edits it, and the brain changes', async () => {
    const hashBefore = await page.getByTestId('brain-hash').textContent();
    await openSection('Items');
    await page.getByLabel('Search', { exact: true }).fill('webhook backoff');
    await page.getByRole('button', { name: 'Search' }).click();
    // The search's own answer: a snippet with the words it matched marked.
    await page.locator('mark', { hasText: 'backoff' }).waitFor();
    // A search is one answer of the best matches: no pages to turn.
    expect(await page.getByRole('navigation', { name: 'Pagination' }).isVisible()).toBe(false);
    const link = page.getByRole('link', { name: 'Webhook sender retries three times' });
    await shot('03-search');
    // A refused action shows the API's own words.
    await page.getByRole('checkbox', { name: 'Select Webhook sender retries three times' }).check();
    await page.getByLabel('Action for the selected items').selectOption('restore');
    await page.getByRole('button', { name: 'Apply to selected' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(
      /^ILLEGAL_STATUS_TRANSITION \S+: cannot restore an item that is active$/,
    );
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Webhook sender retries three times' }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Webhook sender retries five times');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook sender retries five times' }).waitFor();
    await page.getByRole('cell', { name: 'edited' }).waitFor();
    await shot('04-item-edited');

    await openSection('Brain');
    await page
      .getByRole('region', { name: 'Document' })
      .getByText('Webhook sender retries five times')
      .first()
      .waitFor();
    expect(await page.getByTestId('brain-hash').textContent()).not.toBe(hashBefore);
    expect(await brainText()).toContain('Webhook sender retries five times');
  });

  it('follows a session to its items, and an item’s evidence to the event it quotes', async () => {
    await openSection('Sessions');
    const row = page.getByRole('row').filter({ hasText: 'session-lint' });
    await row.getByRole('link', { name: 'session-lint' }).click();
    await page.getByRole('heading', { level: 1, name: /^Items of session / }).waitFor();
    await page.getByRole('link', { name: /Always run the linter before committing/ }).click();
    await page.getByRole('button', { name: 'event lint-rule-1' }).click();
    await page.getByText('Always run the linter before committing.', { exact: true }).last().waitFor();
    await page.getByRole('region', { name: 'Evidence' }).getByRole('link', { name: 'session-lint' }).waitFor();
    await shot('05-item-evidence');
  });

  it('applies a merge proposal from a dry run, then reverts it', async () => {
    await openSection('Review');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page
      .getByTestId('run-summary')
      .getByText(/completed/)
      .waitFor();
    const merge = page.getByRole('article').filter({ hasText: 'Merge:' });
    await merge.waitFor();
    expect(await merge.getByRole('radio', { name: 'Keep this one' }).count()).toBe(2);
    await shot('06-merge-proposal');
    await merge.getByRole('button', { name: 'Apply merge' }).click();
    await page.getByText('Nothing waits for a decision.').waitFor();
    const items = async () =>
      Promise.all(
        [ids.todoA, ids.todoB].map((id) =>
          api<{ item: { status: string } }>(`/api/v2/memory-items/${id}`).then((r) => r.item.status),
        ),
      );
    expect((await items()).sort()).toEqual(['active', 'superseded']);

    const revert = page.getByRole('button', { name: /^Revert near-duplicate on / }).first();
    await revert.click();
    await page
      .getByRole('status')
      .getByText(/Reverted \(2 changes\)/)
      .waitFor();
    await shot('07-merge-reverted');
    expect(await items()).toEqual(['active', 'active']);
  });

  it('deprecates an item, and it leaves the brain', async () => {
    expect(await brainText()).toContain('Name files in kebab-case');
    await openSection('Items');
    await page.getByLabel('Type', { exact: true }).selectOption('Convention');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('link', { name: 'Name files in kebab-case' }).click();
    await page.getByRole('button', { name: 'Deprecate (no longer true)' }).click();
    await page.getByRole('status').getByText('Deprecate: done.').waitFor();
    await page.getByText('archived', { exact: true }).first().waitFor();
    await shot('08-deprecated');
    expect(await brainText()).not.toContain('Name files in kebab-case');
    await openSection('Brain');
    await page.getByTestId('brain-hash').waitFor();
    expect(await page.getByRole('region', { name: 'Document' }).textContent()).not.toContain('kebab-case');
  });

  it('works from the keyboard, and names every control on every page', async () => {
    await openSection('Items');
    // The page moves focus to its heading, so a screen reader announces it; the header comes before it.
    await page.waitForFunction(() => (globalThis as unknown as FocusWindow).document.activeElement?.tagName === 'H1');
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Sign out');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Sessions', exact: true }).waitFor();
    await page.getByRole('link', { name: 'session-lint' }).waitFor();
    await page.waitForFunction(() => (globalThis as unknown as FocusWindow).document.activeElement?.tagName === 'H1');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('session-lint');
    await shot('11-keyboard-focus');
    for (const path of ['/brain', '/items', '/items/new', '/review', '/sessions', `/items/${ids.webhook}`]) {
      // A deep link opens the app there, still signed in (the tab's sessionStorage).
      await page.goto(`${url}/ui${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      expect({ path, unlabelled: await page.evaluate(UNLABELLED) }).toEqual({ path, unlabelled: [] });
    }
  });

  it('tells a project key that the Health page needs the admin token', async () => {
    await page.goto(`${url}/ui/health`);
    const heading = page.getByRole('heading', { level: 1, name: 'Health needs the admin token' });
    await heading.waitFor();
    expect(await page.getByRole('main').textContent()).toContain('MEMEX_ADMIN_TOKEN');
    await page.screenshot({ path: join(SHOTS, 'health-needs-admin.png') });
  });

  it('lets the admin token pick a project and see the health of the queues', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key or admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Open web-app' }).click();
    await page.getByTestId('brain-hash').waitFor();
    await openSection('Health');
    await page.getByRole('rowheader', { name: 'enrichment' }).waitFor();
    await page.getByRole('rowheader', { name: 'Events accepted' }).waitFor();
    const spend = page.getByRole('region', { name: 'Model spend' });
    await spend.getByRole('rowheader', { name: TODAY }).waitFor();
    expect(await spend.getByRole('definition').first().textContent()).toBe('1,200 of 50,000 (48,800 left)');
    expect(await spend.getByRole('row').nth(1).textContent()).toContain('$0.0042');
    await shot('09-health');
    await openSection('Sessions');
    await page.getByRole('link', { name: 'session-lint' }).waitFor();
    await shot('10-sessions');
  });
});
