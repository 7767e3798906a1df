import { Redactor } from './redactor';
import { ALNUM, nearMisses, randomOf, secretCorpus } from './secret-corpus.fixture';
import { parseAllowList, parseExtraPatterns } from './settings';

const redactor = new Redactor();
const redact = async (text: string) => (await redactor.text(text)).value;

describe('the secret corpus', () => {
  const corpus = secretCorpus();

  it('has at least 20 formats', () => {
    expect(new Set(corpus.map((s) => s.format)).size).toBeGreaterThanOrEqual(20);
  });

  it.each(corpus.map((s) => [s.format, s] as const))(
    '%s: every secret goes, its placeholder stands',
    async (_, sample) => {
      const { value, counts } = await redactor.text(sample.text);
      for (const secret of sample.secrets) expect(value).not.toContain(secret);
      for (const kept of sample.kept ?? []) expect(value).toContain(kept);
      expect(value).toContain(`[REDACTED:${sample.kind}]`);
      expect(counts[sample.kind]).toBeGreaterThanOrEqual(1);
    },
  );

  it('redacting a redacted text changes nothing', async () => {
    for (const sample of corpus) {
      const once = await redact(sample.text);
      const again = await redactor.text(once);
      expect(again.value).toBe(once);
      expect(again.counts).toEqual({});
    }
  });
});

describe('near-misses', () => {
  it.each(nearMisses().map((n) => [n.name, n] as const))('%s stays verbatim', async (_, sample) => {
    const { value, counts } = await redactor.text(sample.text);
    expect(value).toBe(sample.text);
    expect(counts).toEqual({});
  });

  it('stay verbatim beside secrets in the same text', async () => {
    const misses = nearMisses().map((n) => n.text);
    const secrets = secretCorpus();
    const text = [...misses, ...secrets.map((s) => s.text)].join('\n\n');
    const value = await redact(text);
    for (const miss of misses) expect(value).toContain(miss);
    for (const secret of secrets.flatMap((s) => s.secrets)) expect(value).not.toContain(secret);
  });
});

describe('rules', () => {
  it('keeps the user and host of a URL and redacts its password', async () => {
    expect(await redact('postgres://app:Sup3r-S3cret@db.internal:5432/app')).toBe(
      'postgres://app:[REDACTED:password]@db.internal:5432/app',
    );
    expect(await redact('redis://:pa55-W0rd@cache:6379')).toBe('redis://:[REDACTED:password]@cache:6379');
    expect(await redact('postgres://app:${PGPASSWORD}@db/app')).toBe('postgres://app:${PGPASSWORD}@db/app');
  });

  it('names a token used as a URL password by its format', async () => {
    const token = `glpat-${randomOf('abcdefghijkLMNOPQ0123456789', 20)}`;
    expect(await redact(`https://oauth2:${token}@gitlab.com/acme/api.git`)).toBe(
      'https://oauth2:[REDACTED:gitlab-token]@gitlab.com/acme/api.git',
    );
  });

  it('takes a PEM block whole, also JSON-escaped and cut off', async () => {
    const body = 'MII' + randomOf('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef0123456789+/', 200);
    const pem = `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`;
    expect(await redact(`key:\n${pem}\nend`)).toBe('key:\n[REDACTED:private-key]\nend');
    expect(await redact(JSON.stringify({ private_key: pem }))).toBe('{"private_key":"[REDACTED:private-key]"}');
    expect(await redact(`-----BEGIN RSA PRIVATE KEY-----\n${body.slice(0, 100)}`)).toBe('[REDACTED:private-key]');
    expect(await redact(`-----BEGIN RSA PRIVATE KEY-----\n${body.slice(0, 100)}\n\nThen we ran it.`)).toBe(
      '[REDACTED:private-key]\nThen we ran it.',
    );
  });

  it('removes private spans whole, unclosed ones to the end', async () => {
    expect(await redact('a <private>x\ny</private> b <PRIVATE>z</PRIVATE> c')).toBe(
      'a [REDACTED:private] b [REDACTED:private] c',
    );
    expect(await redact('keep this <private>not this, nor what follows')).toBe('keep this [REDACTED:private]');
  });

  it('keeps the header and scheme of an Authorization header', async () => {
    const token = randomOf('abcdefghijklmnopqrstuvwxyzABCDEFGH0123456789', 32);
    expect(await redact(`authorization: "Token ${token}"`)).toBe('authorization: "Token [REDACTED:authorization]"');
    expect(await redact(`{"Authorization": "Bearer ${token}"}`)).toBe(
      '{"Authorization": "Bearer [REDACTED:bearer-token]"}',
    );
    expect(await redact(`headers: { Authorization: \`Bearer \${apiKey}\` }`)).toBe(
      'headers: { Authorization: `Bearer ${apiKey}` }',
    );
    expect(await redact('Basic authentication over HTTPS')).toBe('Basic authentication over HTTPS');
  });

  it('redacts .env values whose name names a secret, whatever they look like, but not references or flags', async () => {
    expect(await redact('DB_PASSWORD=hunter2\nexport API_TOKEN="abc"\n- POSTGRES_PASSWORD=pw12')).toBe(
      'DB_PASSWORD=[REDACTED:password]\nexport API_TOKEN="[REDACTED:token]"\n- POSTGRES_PASSWORD=[REDACTED:password]',
    );
    expect(await redact('DB_PASSWORD=${DB_PASSWORD}\nSECRET_ROTATION=true\nTOKEN_TTL=3600\nDB_PASSWORD=')).toBe(
      'DB_PASSWORD=${DB_PASSWORD}\nSECRET_ROTATION=true\nTOKEN_TTL=3600\nDB_PASSWORD=',
    );
  });

  it('redacts assignments only with a value of enough entropy', async () => {
    expect(await redact('password: "Xk9-qT2v-Lw7z"')).toBe('password: "[REDACTED:password]"');
    expect(await redact('"api_key": "3f9a1c77e0b24d5c"')).toBe('"api_key": "[REDACTED:api-key]"');
    expect(await redact('--token=ab12CD34ef56')).toBe('--token=[REDACTED:token]');
    for (const code of [
      'password: "please enter a password"',
      'token: accessToken,',
      'const secret = process.env.JWT_SECRET;',
      "token: 'aaaaaaaaaaaa'",
      'password: string;',
      'tokenBudget = 6000',
    ]) {
      expect(await redact(code)).toBe(code);
    }
  });

  it('names an OpenAI project key ending in - or _ as the preset would one ending in a letter', async () => {
    for (const last of ['-', '_', 'x']) {
      const key = `sk-proj-${randomOf('abcdefghijklmnopqrstuvwxyz0123456789', 74)}T3BlbkFJ${randomOf('abcdef0123456789', 73)}${last}`;
      expect(await redact(`OPENAI_API_KEY=${key}`)).toBe('OPENAI_API_KEY=[REDACTED:openai-key]');
    }
  });

  it('redacts an OpenAI key to its end where the preset stops at a word boundary inside it', async () => {
    // The preset takes 58 or 74 characters after T3BlbkFJ, then a word boundary: here 58, with 16 more after.
    const key = `sk-proj-${'a1B2'.repeat(18)}xyT3BlbkFJ${'c3D4'.repeat(14)}e5-rXTZUG7ft0zCpr-`;
    expect(await redact(`OPENAI_API_KEY=${key}`)).toBe('OPENAI_API_KEY=[REDACTED:openai-key]');
  });

  it('finds a password said in prose after other words about passwords, and inside a note', async () => {
    expect(
      await redact('[MEMORY: keep the password for a user in prose as password for admin: zevdna0-Jjtl] Done.'),
    ).toBe('[MEMORY: keep the password for a user in prose as password for admin: [REDACTED:password]] Done.');
  });

  it('recovers the tail of an AWS secret key the preset reports short', async () => {
    const secret = randomOf('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 40);
    expect(await redact(`AWS_SECRET_ACCESS_KEY=${secret}`)).toBe('AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-key]');
  });

  it('does not let a secretlint-disable comment in the text switch rules off', async () => {
    const token = `ghp_${randomOf(ALNUM, 36)}`;
    expect(await redact(`${token} // secretlint-disable-line`)).toBe(
      '[REDACTED:github-token] // secretlint-disable-line',
    );
  });

  it('returns a text with nothing suspicious as it was, counting nothing', async () => {
    const text = 'Edited src/services/payment.ts to retry webhook deliveries with exponential backoff.';
    const result = await redactor.text(text);
    expect(result.value).toBe(text);
    expect(result.counts).toEqual({});
  });
});

describe('JSON values', () => {
  it('redacts strings at any depth, keys too, and values of secret-named fields whole', async () => {
    const token = `ghp_${randomOf(ALNUM, 36)}`;
    const { value, counts } = await redactor.value({
      tool: 'Bash',
      input: { command: `GH_TOKEN=${token} gh pr list`, env: { password: 'hunter2', passwordHint: 'the usual one' } },
      list: ['plain', `see ${token}`, 3, null, true],
      [token]: 1,
    });
    expect(value).toEqual({
      tool: 'Bash',
      input: {
        command: 'GH_TOKEN=[REDACTED:github-token] gh pr list',
        env: { password: '[REDACTED:password]', passwordHint: '[REDACTED:password]' },
      },
      list: ['plain', 'see [REDACTED:github-token]', 3, null, true],
      '[REDACTED:github-token]': 1,
    });
    expect(counts).toEqual({ 'github-token': 3, password: 2 });
  });

  it('returns an unchanged value itself', async () => {
    const metadata = { tool: 'Edit', input: { file_path: 'src/a.ts' }, tags: ['x'] };
    expect((await redactor.value(metadata)).value).toBe(metadata);
  });
});

describe('settings', () => {
  it('adds operators’ patterns, redacting a first capture group when there is one', async () => {
    const custom = new Redactor({
      extraPatterns: parseExtraPatterns(
        JSON.stringify([
          { name: 'acme-token', pattern: 'acme_[a-z0-9]{16}' },
          { name: 'employee-id', pattern: 'EMP-(\\d{6})', flags: 'i' },
        ]),
      ),
      allow: [],
    });
    expect((await custom.text('token acme_0123456789abcdef and emp-123456')).value).toBe(
      'token [REDACTED:acme-token] and emp-[REDACTED:employee-id]',
    );
  });

  it('leaves what an allow pattern matches whole', async () => {
    const stripeTest = `sk_test_${randomOf(ALNUM, 24)}`;
    const stripeLive = `sk_live_${randomOf(ALNUM, 24)}`;
    const allowing = new Redactor({ extraPatterns: [], allow: parseAllowList('["sk_test_[A-Za-z0-9]+"]') });
    expect((await allowing.text(`${stripeTest} ${stripeLive}`)).value).toBe(`${stripeTest} [REDACTED:stripe-key]`);
    // Whole matches only: a pattern matching part of a secret allows nothing.
    const partial = new Redactor({ extraPatterns: [], allow: parseAllowList('["sk_live"]') });
    expect((await partial.text(stripeLive)).value).toBe('[REDACTED:stripe-key]');
  });

  it.each([
    ['not JSON', '{', /JSON array/],
    ['not an array', '{"name":"x"}', /JSON array/],
    ['a bad name', '[{"name":"Bad Name","pattern":"x"}]', /\[0\]: name must be/],
    ['an invalid pattern', '[{"name":"x","pattern":"("}]', /\[0\]: not a valid regular expression/],
    ['an empty-matching pattern', '[{"name":"x","pattern":"a*"}]', /\[0\]: the pattern matches the empty string/],
    ['an unknown field', '[{"name":"x","pattern":"x","kind":"y"}]', /\[0\]: unknown field kind/],
    ['bad flags', '[{"name":"x","pattern":"x","flags":"g"}]', /\[0\]: flags may hold only/],
  ])('refuses extra patterns with %s', (_, json, message) => {
    expect(() => parseExtraPatterns(json)).toThrow(message);
  });

  it('refuses an allow list that does not compile', () => {
    expect(() => parseAllowList('["ok", "("]')).toThrow(/\[1\]: not a valid regular expression/);
  });
});
