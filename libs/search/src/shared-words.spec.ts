import { anchorsQuery, contentStems, sharesContentWord } from './shared-words';
import { localEmbedding } from './local-embedder';
import { soughtTypes } from './intent';

describe('content words', () => {
  it('leaves function words out and keeps identifiers in parts and whole', () => {
    const stems = contentStems('What is the retryWebhookSender for?');
    expect([...stems].sort()).toEqual(['retry', 'retrywebhooksender', 'sender', 'webhook']);
  });

  it('tell a hit that says a word of the query from a hashing collision', () => {
    const query = contentStems('why did the webhook sender retry');
    expect(sharesContentWord(query, 'The webhook sender dropped deliveries')).toBe(true);
    expect(sharesContentWord(contentStems('zzzqqq'), 'The webhook sender dropped deliveries')).toBe(false);
    expect(sharesContentWord(contentStems('what is the'), 'what is the answer')).toBe(false);
  });

  it('takes no auxiliary "do" or contraction stem for a shared word', () => {
    expect(sharesContentWord(contentStems('when do tulips bloom in Holland'), "Ok let's do 1 and create a PR")).toBe(
      false,
    );
    expect(
      sharesContentWord(contentStems('who won the 1998 football world cup'), "Disabling auto-GC won't lose any data"),
    ).toBe(false);
    expect(sharesContentWord(contentStems('why does the build do a clean first'), 'The build cleans first')).toBe(true);
  });
});

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('the local embedder', () => {
  it('brings no text closer to a question for its function words', () => {
    const question = localEmbedding('what is the capital of Mongolia', 256);
    const unrelated = localEmbedding('what is the cause of the flaky test in the runner', 256);
    const same = localEmbedding('Ulaanbaatar is the capital of Mongolia', 256);
    expect(cosine(question, same)).toBeGreaterThan(0.3);
    expect(cosine(question, unrelated)).toBeLessThan(0.1);
  });
});

describe('soughtTypes', () => {
  it.each([
    ['how should I format commit messages here?', ['Convention']],
    ['why did we pick LangGraph?', ['Decision']],
    ['git status fails again, how did we fix it last time?', ['BugFix']],
    ["what's still open on the release?", ['Todo']],
    ['how tall is Mount Kilimanjaro', []],
    ['best banana bread recipe', []],
  ])('%s asks for %j', (query, types) => {
    expect(soughtTypes(query)).toEqual(types);
  });
});

describe('anchorsQuery', () => {
  const anchors = (query: string, text: string) => anchorsQuery(contentStems(query), text);

  it('is false for a hit that shares one word of the question with it', () => {
    expect(anchors('symptoms of the common cold', 'Fix: resolve CI audit issues. Symptom: knip fails')).toBe(false);
    expect(anchors('how to change a flat bicycle tire', 'Changed the retry delay')).toBe(false);
  });

  it('is true for a hit that says two of its words, or the one word a query has', () => {
    expect(anchors('which pushes trigger CI?', 'CI runs on every push to any branch')).toBe(true);
    expect(anchors('posthog', 'PostHog telemetry blocked the CLI exit: `posthog.NewWithConfig`')).toBe(true);
  });

  it('counts no word that says nothing: "do" and what is left of a contraction', () => {
    expect(anchors("why won't it do that", "Disabling auto-GC won't lose any data; let's do 1")).toBe(false);
  });
});
