/** The words of a name: camelCase, snake_case, kebab-case and dotted names alike. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const WORD_KINDS: Record<string, string> = {
  password: 'password',
  passwd: 'password',
  pwd: 'password',
  pass: 'password',
  passphrase: 'password',
  secret: 'secret',
  token: 'token',
  apikey: 'api-key',
  credential: 'credentials',
  credentials: 'credentials',
  // sshpass reads its password from SSHPASS.
  sshpass: 'password',
};

/** Words run together with what they name (`PGPASSWORD`, `clientsecret`, `accesstoken`). */
const SUFFIX_KINDS: ReadonlyArray<[string, string]> = [
  ['password', 'password'],
  ['passwd', 'password'],
  ['secret', 'secret'],
  ['token', 'token'],
];

function kindOfWord(word: string): string | undefined {
  const kind = WORD_KINDS[word];
  if (kind) return kind;
  for (const [suffix, suffixKind] of SUFFIX_KINDS) if (word.endsWith(suffix)) return suffixKind;
  return undefined;
}

/** `<word> key` pairs that name a secret (a `public key` or `cache key` does not). */
const KEY_PAIRS: Record<string, string> = {
  api: 'api-key',
  access: 'access-key',
  private: 'private-key',
  secret: 'secret',
  signing: 'secret',
  encryption: 'secret',
  master: 'secret',
  account: 'access-key',
  auth: 'api-key',
  client: 'secret',
};

/**
 * The kind of secret a name says its value is (`DB_PASSWORD`, `apiKey`, `"client_secret"`),
 * or undefined. In code a name says what it holds in its last words (`tokenBudget` holds a
 * token budget, `add-token-usage-manual-commit.merge-base` a branch); in `.env` style
 * (`env`) any word counts (`SECRET_KEY_BASE`), and so do a name ending in KEY
 * (`STRIPE_KEY`) and a DSN. In code, `key` alone names cache and map keys far more often
 * than secrets.
 */
export function secretKindOfName(name: string, style: 'env' | 'code'): string | undefined {
  const words = nameWords(name);
  const from = style === 'env' ? 0 : Math.max(0, words.length - 2);
  for (let i = from; i < words.length; i++) {
    const word = words[i]!;
    const kind = kindOfWord(word);
    if (kind) return kind;
    if (word === 'key' && i > 0) {
      const pair = KEY_PAIRS[words[i - 1]!];
      if (pair) return pair;
    }
  }
  if (style === 'env') {
    const last = words[words.length - 1];
    if (last === 'key') return 'api-key';
    if (last === 'dsn') return 'dsn';
    // REDISCLI_AUTH, BASIC_AUTH; not AUTH_URL or AUTH_MODE.
    if (last === 'auth') return 'credentials';
  }
  return undefined;
}

/**
 * The kind of secret a name says its value is by its last word (or its last two, for `api
 * key`, `client secret`): `--db-password`, `client_secret`, `--api-key`. Stricter than
 * secretKindOfName, for values taken whatever they look like: `--password-file`,
 * `password_hash` and `password_min_length` name something else.
 */
export function secretKindOfLastWord(name: string): string | undefined {
  const words = nameWords(name);
  const last = words[words.length - 1];
  if (!last) return undefined;
  if (last === 'key' && words.length > 1) return KEY_PAIRS[words[words.length - 2]!];
  return kindOfWord(last);
}
