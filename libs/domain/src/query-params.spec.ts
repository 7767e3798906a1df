import { queryDecimal, queryInteger } from './query-params';

describe('queryInteger', () => {
  const budget = queryInteger(500, 100_000);

  it.each([
    ['500', 500],
    ['100000', 100_000],
    ['0600', 600],
  ])('takes %j as %d', (text, value) => {
    expect(budget.parse(text)).toBe(value);
  });

  it.each([
    '0x1f4',
    '6e3',
    '500 ',
    ' 500',
    '+500',
    '-500',
    '500.0',
    '5_000',
    '',
    '１０００',
    '499',
    '100001',
    '9'.repeat(400),
  ])('refuses %j', (text) => {
    expect(budget.safeParse(text).success).toBe(false);
  });

  it('refuses numbers and arrays: a query string carries text, once', () => {
    expect(budget.safeParse(600).success).toBe(false);
    expect(budget.safeParse(['600', '700']).success).toBe(false);
  });

  it('names what it wants', () => {
    const result = budget.safeParse('6e3');
    expect(result.error?.issues[0]?.message).toBe('must be a whole number in plain decimal digits');
  });
});

describe('queryDecimal', () => {
  const confidence = queryDecimal(0, 1);

  it.each([
    ['0', 0],
    ['1', 1],
    ['0.75', 0.75],
  ])('takes %j as %d', (text, value) => {
    expect(confidence.parse(text)).toBe(value);
  });

  it.each(['.5', '0.', '1e-1', '0x1', '', ' 0.5', '1.01', '-0.1'])('refuses %j', (text) => {
    expect(confidence.safeParse(text).success).toBe(false);
  });
});
