import { createHmac, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { newId } from '@memex/domain';

/**
 * Fake secrets of the formats Memex must never store, generated afresh from random bytes on
 * every run with each format's prefix, length, alphabet and check digits, so no literal
 * secret is ever committed (and push protection has nothing to block). Shared by the
 * library's tests and the end-to-end test.
 */
export interface SecretSample {
  format: string;
  /** The placeholder kind expected in its place (one of them, for samples holding several). */
  kind: string;
  /** Text as a session would carry it, the secret inside. */
  text: string;
  /** What must not survive redaction. */
  secrets: string[];
  /** What must survive (the user and host of a URL, the harmless lines of a dump). */
  kept?: string[];
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
/** What real key and token bodies are drawn from: a body of lower-case letters alone is no key the prefilter reads. */
export const ALNUM = UPPER + LOWER + DIGITS;
const BASE64URL = ALNUM + '_-';
const HEX = '0123456789abcdef';

/** `n` characters of `alphabet`, drawn from random bytes (a little modulo bias is fine for fakes). */
export function randomOf(alphabet: string, n: number): string {
  return Array.from(randomBytes(n), (b) => alphabet[b % alphabet.length]).join('');
}

function base62(value: number, width: number): string {
  let out = '';
  for (let v = value; v > 0; v = Math.floor(v / 62)) out = ALNUM[v % 62]! + out;
  return out.padStart(width, '0');
}

/** GitHub's token layout: prefix, 30 random characters, then their CRC32 in base62 (6 characters). */
function githubToken(prefix: string): string {
  const body = randomOf(ALNUM, 30);
  return `${prefix}_${body}${base62(crc32(body), 6)}`;
}

function base64url(value: Buffer | string): string {
  return Buffer.from(value).toString('base64url');
}

function jwt(): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify({ sub: randomUUID(), iat: 1_790_000_000, scope: 'deploy' }));
  const signature = createHmac('sha256', randomBytes(32)).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

function pemWrap(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----`;
}

/** OpenSSH's own key format: the `openssh-key-v1` magic, then the (here random) key material. */
function openSshKey(): string {
  const body = Buffer.concat([Buffer.from('openssh-key-v1\0'), randomBytes(380)]).toString('base64');
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${(body.match(/.{1,70}/g) ?? []).join('\n')}\n-----END OPENSSH PRIVATE KEY-----`;
}

function password(): string {
  return `${randomOf(ALNUM, 10)}-${randomOf(DIGITS, 3)}${randomOf(UPPER, 3)}`;
}

/** A password a person chose: a word, digits, a capital. */
function chosenPassword(): string {
  return `${randomOf(LOWER, 6)}${randomOf(DIGITS, 1)}-${randomOf(UPPER, 1)}${randomOf(LOWER, 3)}`;
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const WORDS = ['velvet', 'otter', 'marble', 'cobalt', 'meadow', 'falcon', 'juniper', 'quartz', 'harbor', 'lantern'];

/**
 * Service tokens known by their prefix and shape, beyond the secretlint preset: each a
 * sample in a sentence that names nothing, so only the format can find it.
 */
function prefixedTokens(): SecretSample[] {
  const hex = (n: number) => randomOf(HEX, n);
  const tokens: Array<[string, string, string]> = [
    ['Mailgun private key', 'mailgun-key', `${hex(32)}-${hex(8)}-${hex(8)}`],
    ['Discord webhook', 'discord-webhook', randomOf(BASE64URL, 68)],
    ['Mailchimp key', 'mailchimp-key', `${hex(32)}-us${1 + (randomBytes(1)[0]! % 20)}`],
    ['Postman key', 'postman-key', `PMAK-${hex(24)}-${hex(34)}`],
    ['Sentry user token', 'sentry-token', `sntryu_${hex(64)}`],
    ['Heroku key', 'heroku-key', `HRKU-AA${randomOf(BASE64URL, 58)}`],
    ['Atlassian API token', 'atlassian-token', `ATATT3xFfGF0${randomOf(ALNUM, 180)}`],
    ['Doppler token', 'doppler-token', `dp.pt.${randomOf(ALNUM, 43)}`],
    ['Pulumi token', 'pulumi-token', `pul-${hex(40)}`],
    ['Supabase token', 'supabase-token', `sbp_${hex(40)}`],
    ['PlanetScale token', 'planetscale-token', `pscale_tkn_${randomOf(ALNUM, 43)}`],
    ['Tailscale auth key', 'tailscale-key', `tskey-auth-${randomOf(ALNUM, 12)}CNTRL-${randomOf(ALNUM, 32)}`],
    ['Google OAuth client secret', 'google-oauth-secret', `GOCSPX-${randomOf(ALNUM, 28)}`],
    ['Google OAuth access token', 'google-oauth-token', `ya29.${randomOf(BASE64URL, 120)}`],
    ['Square token', 'square-token', `sq0atp-${randomOf(BASE64URL, 22)}`],
    ['New Relic key', 'newrelic-key', `NRAK-${randomOf(UPPER + DIGITS, 27)}`],
    ['Brevo key', 'brevo-key', `xkeysib-${hex(64)}-${randomOf(ALNUM, 16)}`],
    ['Perplexity key', 'perplexity-key', `pplx-${randomOf(ALNUM, 48)}`],
    ['xAI key', 'xai-key', `xai-${randomOf(ALNUM, 80)}`],
    ['Replicate token', 'replicate-token', `r8_${randomOf(ALNUM, 37)}`],
    ['Mapbox secret token', 'mapbox-token', `sk.eyJ1Ijoi${randomOf(ALNUM, 40)}.${randomOf(ALNUM, 22)}`],
    ['Contentful token', 'contentful-token', `CFPAT-${randomOf(ALNUM, 43)}`],
    ['SonarQube token', 'sonarqube-token', `squ_${hex(40)}`],
    ['Buildkite token', 'buildkite-token', `bkua_${hex(40)}`],
    ['RubyGems key', 'rubygems-key', `rubygems_${hex(48)}`],
    ['Terraform Cloud token', 'terraform-token', `${randomOf(ALNUM, 14)}.atlasv1.${randomOf(ALNUM, 67)}`],
  ];
  return tokens.map(([format, kind, secret]) => ({
    format,
    kind,
    text:
      kind === 'discord-webhook'
        ? `curl -X POST https://discord.com/api/webhooks/${randomOf(DIGITS, 18)}/${secret} -d @msg.json`
        : `the deploy job reads ${secret} from the vault`,
    secrets: [secret],
  }));
}

/** At least 20 formats, each in the kind of sentence or file a coding session shows it in. */
export function secretCorpus(): SecretSample[] {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pkcs8 = generateKeyPairSync('rsa', { modulusLength: 1024 });

  const awsId = `AKIA${randomOf(UPPER + '234567', 16)}`;
  const awsSecret = `${randomOf(ALNUM + '/+', 39)}${randomOf(ALNUM, 1)}`;
  const ghClassic = githubToken('ghp');
  const ghFine = `github_pat_${randomOf(ALNUM, 22)}_${randomOf(ALNUM, 59)}`;
  const ghApp = githubToken('ghs');
  const ghUser = githubToken('ghu');
  const gitlab = `glpat-${randomOf(BASE64URL, 20)}`;
  const slackBot = `xoxb-${randomOf(DIGITS, 12)}-${randomOf(DIGITS, 13)}-${randomOf(ALNUM, 24)}`;
  const slackUser = `xoxp-${randomOf(DIGITS, 12)}-${randomOf(DIGITS, 12)}-${randomOf(DIGITS, 13)}-${randomOf(HEX, 32)}`;
  const slackHook = `https://hooks.slack.com/services/T${randomOf(UPPER + DIGITS, 10)}/B${randomOf(UPPER + DIGITS, 10)}/${randomOf(ALNUM, 24)}`;
  const stripeLive = `sk_live_${randomOf(ALNUM, 99)}`;
  const stripeTest = `sk_test_${randomOf(ALNUM, 24)}`;
  const stripeRestricted = `rk_live_${randomOf(ALNUM, 24)}`;
  const openai = `sk-proj-${randomOf(BASE64URL, 74)}T3BlbkFJ${randomOf(BASE64URL, 74)}`;
  const anthropic = `sk-ant-api03-${randomOf(BASE64URL, 93)}AA`;
  const google = `AIza${randomOf(BASE64URL, 35)}`;
  const gcpKey = pkcs8.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trim();
  const azureKey = randomBytes(64).toString('base64');
  const npm = `npm_${randomOf(ALNUM, 36)}`;
  const pypi = `pypi-AgEIcHlwaS5vcmc${base64url(randomBytes(60))}`;
  const sendgrid = `SG.${randomOf(BASE64URL, 22)}.${randomOf(BASE64URL, 43)}`;
  const twilioSid = `SK${randomOf(HEX, 32)}`;
  const twilioToken = randomOf(HEX, 32);
  const token = jwt();
  const rsaPem = pemWrap('RSA PRIVATE KEY', rsa.privateKey.export({ type: 'pkcs1', format: 'der' }));
  const ecPem = pemWrap('EC PRIVATE KEY', ec.privateKey.export({ type: 'sec1', format: 'der' }));
  const sshPem = openSshKey();
  const pgPassword = password();
  const mysqlPassword = password();
  const mongoPassword = password();
  const redisPassword = password();
  const basicPassword = password();
  const bearer = randomOf(ALNUM, 40);
  const envDb = password();
  const envSecretBase = randomOf(HEX, 64);
  const envStripe = `sk_live_${randomOf(ALNUM, 24)}`;
  const envSentry = `https://${randomOf(HEX, 32)}@o1.ingest.sentry.io/42`;
  const envShort = randomOf(LOWER, 7);
  const memexKey = `mx_${base64url(randomBytes(32))}`;
  const hf = `hf_${randomOf(UPPER + LOWER, 34)}`;
  const vault = `hvs.${randomOf(BASE64URL, 96)}`;
  const docker = `dckr_pat_${randomOf(BASE64URL, 27)}`;
  const yamlSecret = `${randomOf(ALNUM, 20)}%${randomOf(ALNUM, 4)}`;
  const codeSecret = randomOf(ALNUM, 32);
  const mailgun = `key-${randomOf(LOWER + DIGITS, 32)}`;
  const digitalOcean = `dop_v1_${randomOf(HEX, 64)}`;
  const telegram = `${randomOf('123456789', 1)}${randomOf(DIGITS, 8)}:AA${randomOf(BASE64URL, 33)}`;
  const discord = `${Buffer.from(`1${randomOf(DIGITS, 18)}`).toString('base64url')}.${randomOf(BASE64URL, 6)}.${randomOf(BASE64URL, 38)}`;
  const mysqlFlag = chosenPassword();
  const age = `AGE-SECRET-KEY-1${randomOf(BECH32.toUpperCase(), 58)}`;
  const dockerAuth = Buffer.from(`acme:${chosenPassword()}`).toString('base64');
  const pgEnv = chosenPassword();
  const sshpass = chosenPassword();
  const flagApart = chosenPassword();
  const flagJoined = chosenPassword();
  const dockerEnv = chosenPassword();
  const yamlWords = Array.from({ length: 3 }, () => WORDS[randomBytes(1)[0]! % WORDS.length]).join(' ');
  const prosePassword = chosenPassword();
  const proseAwsId = `AKIA${randomOf(UPPER + '234567', 16)}`;
  const proseAwsSecret = `${randomOf(ALNUM + '/+', 38)}${randomOf(UPPER, 1)}${randomOf(DIGITS, 1)}`;
  const midLinePassword = randomOf(LOWER, 7);
  const midLineDatadog = randomOf(HEX, 40);
  const midLineSentry = `https://${randomOf(HEX, 32)}@o1.ingest.sentry.io/42`;
  const redisCli = chosenPassword();
  const dockerLogin = chosenPassword();
  const curlUser = chosenPassword();
  const tokenFlag = randomOf(ALNUM, 32);
  const properties = chosenPassword();
  const jsonLine = `${randomOf(LOWER, 6)}${randomOf(DIGITS, 2)}`;
  const proseFor = chosenPassword();
  const privateNote = `my home address is ${randomOf(DIGITS, 3)} ${randomOf(UPPER, 1)}${randomOf(LOWER, 8)} Street`;

  return [
    {
      format: 'AWS access key id',
      kind: 'aws-access-key',
      text: `We decided to use the AWS key ${awsId} for the uploads bucket.`,
      secrets: [awsId],
    },
    {
      format: 'AWS secret access key',
      kind: 'aws-secret-key',
      text: `[default]\naws_access_key_id = ${awsId}\naws_secret_access_key = ${awsSecret}\n`,
      secrets: [awsId, awsSecret],
    },
    {
      format: 'GitHub classic PAT',
      kind: 'github-token',
      text: `git clone https://x-access-token:${ghClassic}@github.com/acme/api.git`,
      secrets: [ghClassic],
      kept: ['github.com/acme/api.git'],
    },
    {
      format: 'GitHub fine-grained PAT',
      kind: 'github-token',
      text: `export GH_TOKEN=${ghFine}`,
      secrets: [ghFine],
    },
    {
      format: 'GitHub app installation token',
      kind: 'github-token',
      text: `the workflow got ${ghApp} from the app`,
      secrets: [ghApp],
    },
    {
      format: 'GitHub user-to-server token',
      kind: 'github-token',
      text: `{"access_token": "${ghUser}", "token_type": "bearer"}`,
      secrets: [ghUser],
    },
    { format: 'GitLab PAT', kind: 'gitlab-token', text: `PRIVATE-TOKEN: ${gitlab}`, secrets: [gitlab] },
    {
      format: 'Slack bot token',
      kind: 'slack-token',
      text: `SLACK_BOT_TOKEN=${slackBot} is what the notifier reads`,
      secrets: [slackBot],
    },
    {
      format: 'Slack user token',
      kind: 'slack-token',
      text: `client = WebClient("${slackUser}")`,
      secrets: [slackUser],
    },
    {
      format: 'Slack incoming webhook',
      kind: 'slack-webhook',
      text: `curl -X POST ${slackHook} -d '{"text":"deployed"}'`,
      secrets: [slackHook],
    },
    { format: 'Stripe live key', kind: 'stripe-key', text: `stripe.api_key = "${stripeLive}"`, secrets: [stripeLive] },
    { format: 'Stripe test key', kind: 'stripe-key', text: `Use ${stripeTest} in CI only.`, secrets: [stripeTest] },
    {
      format: 'Stripe restricted key',
      kind: 'stripe-key',
      text: `the reporting job has ${stripeRestricted}`,
      secrets: [stripeRestricted],
    },
    { format: 'OpenAI project key', kind: 'openai-key', text: `OPENAI_API_KEY=${openai}`, secrets: [openai] },
    {
      format: 'Anthropic API key',
      kind: 'anthropic-key',
      text: `const client = new Anthropic({ apiKey: '${anthropic}' });`,
      secrets: [anthropic],
    },
    {
      format: 'Google API key',
      kind: 'google-api-key',
      text: `maps.googleapis.com/maps/api/geocode/json?key=${google}`,
      secrets: [google],
    },
    {
      format: 'GCP service-account JSON',
      kind: 'private-key',
      text: JSON.stringify(
        {
          type: 'service_account',
          project_id: 'acme-prod',
          private_key_id: randomOf(HEX, 40),
          private_key: `${gcpKey}\n`,
          client_email: 'deployer@acme-prod.iam.gserviceaccount.com',
        },
        null,
        2,
      ),
      secrets: [gcpKey.split('\n')[1]!, JSON.stringify(gcpKey).slice(40, 120)],
      kept: ['deployer@acme-prod.iam.gserviceaccount.com'],
    },
    {
      format: 'Azure storage connection string',
      kind: 'azure-key',
      text: `DefaultEndpointsProtocol=https;AccountName=acmeuploads;AccountKey=${azureKey};EndpointSuffix=core.windows.net`,
      secrets: [azureKey],
      kept: ['AccountName=acmeuploads'],
    },
    {
      format: 'npm token',
      kind: 'npm-token',
      text: `//registry.npmjs.org/:_authToken=${npm}`,
      secrets: [npm],
    },
    { format: 'PyPI token', kind: 'pypi-token', text: `twine upload -u __token__ -p ${pypi} dist/*`, secrets: [pypi] },
    {
      format: 'SendGrid key',
      kind: 'sendgrid-key',
      text: `sg = SendGridAPIClient('${sendgrid}')`,
      secrets: [sendgrid],
    },
    {
      format: 'Twilio API key and auth token',
      kind: 'twilio-key',
      text: `TWILIO_API_KEY=${twilioSid}\nTWILIO_AUTH_TOKEN=${twilioToken}`,
      secrets: [twilioSid, twilioToken],
    },
    { format: 'JWT', kind: 'jwt', text: `the session cookie was ${token}; it expired`, secrets: [token] },
    {
      format: 'PEM RSA private key',
      kind: 'private-key',
      text: `cat deploy/id_rsa\n${rsaPem}\n`,
      secrets: [rsaPem.split('\n')[1]!, rsaPem.split('\n')[5]!],
    },
    {
      format: 'PEM EC private key',
      kind: 'private-key',
      text: `Here is the key:\n${ecPem}`,
      secrets: [ecPem.split('\n')[1]!],
    },
    {
      format: 'OpenSSH private key',
      kind: 'private-key',
      text: `${sshPem}\n`,
      secrets: [sshPem.split('\n')[1]!, sshPem.split('\n')[3]!],
    },
    {
      format: 'PostgreSQL URL with password',
      kind: 'password',
      text: `DATABASE_URL=postgres://app_user:${pgPassword}@db.internal:5432/app`,
      secrets: [pgPassword],
      kept: ['postgres://app_user:', '@db.internal:5432/app'],
    },
    {
      format: 'MySQL URL with password',
      kind: 'password',
      text: `connect to mysql://root:${mysqlPassword}@127.0.0.1:3306/shop first`,
      secrets: [mysqlPassword],
      kept: ['mysql://root:', '@127.0.0.1:3306/shop'],
    },
    {
      format: 'MongoDB SRV URL with password',
      kind: 'password',
      text: `"mongodb+srv://svc:${mongoPassword}@cluster0.example.mongodb.net/?retryWrites=true"`,
      secrets: [mongoPassword],
      kept: ['cluster0.example.mongodb.net'],
    },
    {
      format: 'Redis URL with password only',
      kind: 'password',
      text: `REDIS_URL=redis://:${redisPassword}@cache:6379/0`,
      secrets: [redisPassword],
      kept: ['@cache:6379/0'],
    },
    {
      format: 'Basic auth header',
      kind: 'basic-auth',
      text: `curl -H 'Authorization: Basic ${Buffer.from(`deploy:${basicPassword}`).toString('base64')}' https://ci.example.com`,
      secrets: [Buffer.from(`deploy:${basicPassword}`).toString('base64')],
      kept: ['Authorization: Basic'],
    },
    {
      format: 'Bearer auth header',
      kind: 'bearer-token',
      text: `GET /v1/me HTTP/1.1\nAuthorization: Bearer ${bearer}\nAccept: */*`,
      secrets: [bearer],
      kept: ['Authorization: Bearer'],
    },
    {
      format: '.env dump',
      kind: 'password',
      text: [
        'NODE_ENV=production',
        'PORT=3000',
        `DB_PASSWORD=${envDb}`,
        `SECRET_KEY_BASE=${envSecretBase}`,
        `STRIPE_KEY="${envStripe}"`,
        `SENTRY_DSN=${envSentry}`,
        `ADMIN_PASS=${envShort}`,
        'LOG_LEVEL=debug',
      ].join('\n'),
      secrets: [envDb, envSecretBase, envStripe, envSentry, envShort],
      kept: ['NODE_ENV=production', 'PORT=3000', 'LOG_LEVEL=debug', 'DB_PASSWORD=', 'ADMIN_PASS='],
    },
    {
      format: 'Memex API key',
      kind: 'memex-api-key',
      text: `MEMEX_API_KEY=${memexKey} claude`,
      secrets: [memexKey],
    },
    {
      format: 'Hugging Face token',
      kind: 'huggingface-token',
      text: `huggingface-cli login --token ${hf}`,
      secrets: [hf],
    },
    {
      format: 'HashiCorp Vault token',
      kind: 'vault-token',
      text: `VAULT_TOKEN=${vault} vault kv get secret/app`,
      secrets: [vault],
    },
    {
      format: 'Docker Hub PAT',
      kind: 'docker-token',
      text: `echo ${docker} | docker login -u acme --password-stdin`,
      secrets: [docker],
    },
    {
      format: 'high-entropy YAML password',
      kind: 'password',
      text: `database:\n  user: app\n  password: ${yamlSecret}\n  host: db`,
      secrets: [yamlSecret],
      kept: ['user: app', 'host: db'],
    },
    {
      format: 'high-entropy assignment in code',
      kind: 'secret',
      text: `const clientSecret = "${codeSecret}";`,
      secrets: [codeSecret],
      kept: ['const clientSecret = '],
    },
    // Issue 29: what an attacker-run found stored verbatim.
    {
      format: 'Mailgun key in curl --user',
      kind: 'mailgun-key',
      text: `curl -s --user 'api:${mailgun}' https://api.mailgun.net/v3/mg.acme.io/messages -F to=ops@acme.io`,
      secrets: [mailgun],
      kept: ['https://api.mailgun.net/v3/mg.acme.io/messages'],
    },
    {
      format: 'DigitalOcean token',
      kind: 'digitalocean-token',
      text: `doctl auth init --access-token ${digitalOcean}`,
      secrets: [digitalOcean],
    },
    {
      format: 'Telegram bot token in its URL',
      kind: 'telegram-bot-token',
      text: `curl "https://api.telegram.org/bot${telegram}/sendMessage?chat_id=42&text=deployed"`,
      secrets: [telegram],
      kept: ['https://api.telegram.org/bot', '/sendMessage?chat_id=42'],
    },
    {
      format: 'Discord bot token',
      kind: 'discord-token',
      text: `client.login('${discord}'); // the release bot`,
      secrets: [discord],
    },
    {
      format: 'mysql -p<password>',
      kind: 'password',
      text: `mysql -u root -p${mysqlFlag} -h db.internal shop < dump.sql`,
      secrets: [mysqlFlag],
      kept: ['mysql -u root -p', ' -h db.internal shop < dump.sql'],
    },
    {
      format: 'age secret key',
      kind: 'age-secret-key',
      text: `# created: 2026-11-21T09:00:00Z\n# public key: age1${randomOf(BECH32, 58)}\n${age}`,
      secrets: [age],
      kept: ['# public key: age1'],
    },
    {
      format: 'Docker config.json auth',
      kind: 'basic-auth',
      text: `{"auths":{"https://index.docker.io/v1/":{"auth":"${dockerAuth}"}},"credsStore":""}`,
      secrets: [dockerAuth],
      kept: ['https://index.docker.io/v1/'],
    },
    {
      format: 'PGPASSWORD=… psql',
      kind: 'password',
      text: `PGPASSWORD=${pgEnv} psql -h db.internal -U app app`,
      secrets: [pgEnv],
      kept: ['psql -h db.internal -U app app'],
    },
    {
      format: 'sshpass -p',
      kind: 'password',
      text: `sshpass -p '${sshpass}' ssh deploy@10.0.0.5 'systemctl restart api'`,
      secrets: [sshpass],
      kept: ['ssh deploy@10.0.0.5'],
    },
    {
      format: '--password <value>',
      kind: 'password',
      text: `mongodump --username admin --password ${flagApart} --db shop`,
      secrets: [flagApart],
      kept: ['--db shop'],
    },
    {
      format: '--password=<value>',
      kind: 'password',
      text: `kcadm.sh config credentials --user admin --password=${flagJoined} --realm acme`,
      secrets: [flagJoined],
      kept: ['--realm acme'],
    },
    {
      format: 'docker run -e POSTGRES_PASSWORD=',
      kind: 'password',
      text: `docker run -d -e POSTGRES_PASSWORD=${dockerEnv} -p 5432:5432 postgres:16`,
      secrets: [dockerEnv],
      kept: ['-p 5432:5432 postgres:16'],
    },
    {
      format: 'YAML client_secret of words',
      kind: 'secret',
      text: `oauth:\n  client_id: web-app\n  client_secret: ${yamlWords}\n  redirect_uri: /callback`,
      secrets: [yamlWords],
      kept: ['client_id: web-app', 'redirect_uri: /callback'],
    },
    {
      format: 'password said in prose',
      kind: 'password',
      text: `fyi the staging password is ${prosePassword}.`,
      secrets: [prosePassword],
      kept: ['fyi the staging password is '],
    },
    {
      format: 'AWS secret key beside its key id in prose',
      kind: 'aws-secret-key',
      text: `AWS key ${proseAwsId} with secret ${proseAwsSecret}`,
      secrets: [proseAwsId, proseAwsSecret],
    },
    {
      format: 'DB_PASSWORD= in the middle of a line',
      kind: 'password',
      text: `export NODE_ENV=production DB_PASSWORD=${midLinePassword}`,
      secrets: [midLinePassword],
      kept: ['export NODE_ENV=production DB_PASSWORD='],
    },
    {
      format: 'DD_APP_KEY= in the middle of a line',
      kind: 'api-key',
      text: `run with DD_APP_KEY=${midLineDatadog} ./bin/sync-monitors`,
      secrets: [midLineDatadog],
      kept: ['./bin/sync-monitors'],
    },
    {
      format: 'SENTRY_DSN= in the middle of a line',
      kind: 'dsn',
      text: `deploy with SENTRY_DSN=${midLineSentry} npm start`,
      secrets: [midLineSentry],
      kept: ['npm start'],
    },
    // Their family: passwords in other commands' flags, other files' assignments, other sentences.
    {
      format: 'redis-cli -a',
      kind: 'password',
      text: `redis-cli -h cache.internal -a ${redisCli} --no-auth-warning ping`,
      secrets: [redisCli],
      kept: ['--no-auth-warning ping'],
    },
    {
      format: 'docker login -p',
      kind: 'password',
      text: `docker login -u ci -p ${dockerLogin} registry.acme.io`,
      secrets: [dockerLogin],
      kept: ['registry.acme.io'],
    },
    {
      format: 'curl -u user:password',
      kind: 'password',
      text: `curl -u deploy:${curlUser} https://ci.acme.io/api/json`,
      secrets: [curlUser],
      kept: ['curl -u deploy:', 'https://ci.acme.io/api/json'],
    },
    {
      format: '--token <value>',
      kind: 'token',
      text: `vercel deploy --prod --token ${tokenFlag}`,
      secrets: [tokenFlag],
    },
    {
      format: 'Java properties password',
      kind: 'password',
      text: `spring.datasource.url=jdbc:postgresql://db/app\nspring.datasource.password=${properties}`,
      secrets: [properties],
      kept: ['spring.datasource.url=jdbc:postgresql://db/app'],
    },
    {
      format: 'pretty-printed JSON password',
      kind: 'password',
      text: `{\n  "db": {\n    "user": "app",\n    "password": "${jsonLine}"\n  }\n}`,
      secrets: [jsonLine],
      kept: ['"user": "app"'],
    },
    {
      format: 'password for a user in prose',
      kind: 'password',
      text: `password for admin: ${proseFor}`,
      secrets: [proseFor],
    },
    ...prefixedTokens(),
    {
      format: 'private span',
      kind: 'private',
      text: `Ship it today. <private>${privateNote}</private> Then tag the release.`,
      secrets: [privateNote],
      kept: ['Ship it today.', 'Then tag the release.'],
    },
  ];
}

export interface NearMiss {
  name: string;
  /** Kept verbatim by redaction. */
  text: string;
}

/** Things that look like secrets and are not: redaction must leave every one as it is. */
export function nearMisses(): NearMiss[] {
  const sha = randomBytes(20).toString('hex');
  return [
    { name: 'git SHA', text: `commit ${sha} (fix retries), short ${sha.slice(0, 7)}` },
    { name: 'UUID', text: `session ${randomUUID()} started` },
    { name: 'ULID', text: `item ${newId()} was superseded by ${newId()}` },
    { name: 'Memex event id', text: `event ${randomUUID()}:tool_result:3 cites ${randomUUID()}` },
    {
      name: 'base64 image',
      text: `<img src="data:image/png;base64,${Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(600)]).toString('base64')}">`,
    },
    {
      name: 'lockfile integrity',
      text: `"resolved": "https://registry.npmjs.org/zod/-/zod-4.6.7.tgz",\n"integrity": "sha512-${randomBytes(64).toString('base64')}"`,
    },
    { name: 'SHA-256 digest', text: `image digest sha256:${randomBytes(32).toString('hex')} pushed` },
    { name: 'MD5 checksum', text: `md5sum: ${randomBytes(16).toString('hex')}  dist/app.tar.gz` },
    {
      name: 'URL without password',
      text: 'DATABASE_URL=postgres://postgres@127.0.0.1:5432/memex and https://github.com/acme/api',
    },
    { name: 'public key', text: pemWrap('PUBLIC KEY', randomBytes(294)) },
    { name: 'prose about tokens', text: 'The token budget is 6000 tokens; Bearer authentication is used for the API.' },
    { name: 'typed code', text: 'interface Auth { token: string; password: z.string().min(8); apiKey?: string }' },
    { name: 'token budget', text: '{"tokenBudget": 6000, "maxTokens": 2000, "passwordMinLength": 12}' },
    { name: 'env without secrets', text: 'NODE_ENV=production\nLOG_LEVEL=info\nKEY_PREFIX=memex\nTOKEN_TTL=3600' },
    {
      name: 'shell variable reference',
      text: 'curl -H "Authorization: Bearer $MEMEX_API_KEY" "$MEMEX_URL/api/v2/brain"',
    },
    // Beside issue 29's formats: what reads like them and is not a secret.
    {
      name: 'prose about passwords',
      text: 'the password is stored in Vault; passwords are hashed with bcrypt, and the password is required.',
    },
    {
      name: 'password flags without a password',
      text: 'docker login -u ci --password-stdin && mysql --defaults-file=/etc/my.cnf -u root -p shop && psql --password-file /run/secrets/db',
    },
    {
      name: 'password policy settings',
      text: 'PASSWORD_MIN_LENGTH=8\nPASSWORD_REQUIRE_SYMBOL=true\nTOKEN_TTL=3600\nAUTH_MODE=oauth',
    },
    {
      name: 'password code',
      text: "user.password_hash = await bcrypt.hash(password, 12);\nconst pw = getPassword();\nif (!passwordMatches) throw new Error('bad password');\nuser.password_hash = hash;",
    },
    {
      name: 'typed code a property a line',
      text: 'interface Auth {\n  token: string;\n  password: z.string().min(8);\n  apiKey: apiKey,\n  secret: string\n}',
    },
    {
      name: 'field documentation',
      text: 'password: must be at least 8 characters\ntoken: see the docs for how to create one',
    },
    {
      name: 'ports, users and references in commands',
      text: 'docker run -p 8080:80 -u 1000:1000 nginx && ssh -p 2222 deploy@host && curl -u "$USER:$PASS" https://ci.acme.io',
    },
    {
      name: 'password references in commands',
      text: 'mysql -u root -p"$MYSQL_PWD" shop && sshpass -p "$SSHPASS" ssh host && redis-cli -a "${REDIS_PASSWORD}" ping',
    },
    { name: 'age public key', text: `recipient age1${randomOf(BECH32, 58)} can decrypt it` },
    { name: 'words like key- and api-key', text: 'the cache key-value store sends an api-key header' },
    // Seen in real sessions, where a first version of the prose rule took them for secrets.
    {
      name: 'token counts in terminal output',
      text: 'System prompt: \u001b[2m3.2k tokens (0.3%)\u001b[22m\nMessages: \u001b[2m396.9k tokens (39.7%)\u001b[22m',
    },
    { name: 'capitalised words after secret', text: 'Gitleaks Secret Auto-Redaction Script: skipping secret scanning' },
    {
      name: 'git config of a branch named for secrets',
      text: 'branch.20260206-secrets-redaction.merge=refs/heads/20260206-secrets-redaction\nToken count: ${tokens.length}',
    },
    {
      name: 'prose about tokens and keys',
      text: 'The token budget is 6000 tokens; the API key is read from the environment.',
    },
  ];
}
