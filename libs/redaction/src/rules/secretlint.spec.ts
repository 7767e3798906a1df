import { SECRETLINT_SKIPPED, SECRETLINT_TRIGGERS, loadSecretlint, shortRuleName } from './secretlint';

describe('the secretlint preset', () => {
  it('has a trigger for every rule it runs, and no trigger for a rule it lacks', async () => {
    const { rules } = await import('@secretlint/secretlint-rule-preset-recommend');
    const names = rules.map((rule) => shortRuleName(rule.meta.id));
    expect(names.filter((n) => !(n in SECRETLINT_TRIGGERS) && !SECRETLINT_SKIPPED.has(n))).toEqual([]);
    expect(Object.keys(SECRETLINT_TRIGGERS).filter((n) => !names.includes(n))).toEqual([]);
    expect((await loadSecretlint()).names).toEqual(names.filter((n) => !SECRETLINT_SKIPPED.has(n)));
  });

  it('runs only the rules it is given', async () => {
    const secretlint = await loadSecretlint();
    const text = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef and npm_${'Z9y8X7w6V5'.repeat(3)}abcdef`;
    expect((await secretlint.find(text, ['github'])).map((f) => f.kind)).toEqual(['github-token']);
    expect((await secretlint.find(text, ['github', 'npm'])).map((f) => f.kind).sort()).toEqual([
      'github-token',
      'npm-token',
    ]);
    expect(await secretlint.find(text, [])).toEqual([]);
  });
});
