/**
 * Texts made to be slow to redact: a prefix or separator a rule looks for, repeated until the
 * text is long, so a rule that reads on from each one to the end of a run or a line, or
 * backtracks over it, pays for every repetition again. Shared by the library's time tests,
 * bench:redaction and the end-to-end test of a large adversarial batch.
 */
export function adversarialUnits(): string[] {
  return [
    // Separators after names that name secrets: assignments, `.env` lines, YAML, JSON.
    'KEY=',
    'password=',
    'api_key=',
    'token: ',
    'password="x" ',
    'password="',
    'token: "x", ',
    'DB_PASSWORD=a\n',
    'a DB_PASSWORD=a ',
    'AccountKey=a',
    'auth: ',
    '"auth":"',
    'client_secret: ',
    'a=',
    '=',
    ':',
    // Runs of one kind of character, which the first look and the token rules walk.
    'aB3+',
    'A1-',
    'x_',
    '-',
    ' ',
    '\t',
    '\n',
    '"',
    '0',
    '.',
    // Known prefixes, each followed by more of the run it starts.
    'eyJ-',
    'eyJa.',
    'sk-',
    'sk-proj-',
    'sk-ant-api03-',
    'sk_live_',
    'AKIA',
    'AKIAAAAAAAAAAAAAAAAA ',
    'aws_secret_access_key=',
    'ghp_a',
    'github_pat_a_',
    'xoxb-1-',
    'glpat-a',
    'npm_a',
    'SG.a.',
    'hvs.',
    'dckr_pat_',
    'AIza',
    'mx_',
    'whsec_',
    'pypi-Ag',
    '?sig=a',
    // Structures: key blocks, URLs with credentials, headers, private spans.
    '-----BEGIN PRIVATE KEY-----\n',
    '-----BEGIN RSA PRIVATE KEY-----\nAAAA',
    '<private>',
    '://',
    'a://a:b',
    'postgres://a:b@',
    'https://u:p@h/',
    'Authorization: ',
    'Bearer aaaa',
    'Basic QUFB',
  ];
}

/** `unit` repeated to exactly `length` characters. */
export function textOfLength(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}
