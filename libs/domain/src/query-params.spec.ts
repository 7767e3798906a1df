import { queryDecimal, queryInteger } from './query-params';

/** The texts a query-string number takes, each read as its value, and those it refuses. */
function itReads(
  schema: ReturnType<typeof queryInteger | typeof queryDecimal>,
  takes: [string, number][],
  refuses: string[],
) {
  it.each(takes)('takes %j as %d', (text, value) => {
    expect(schema.parse(text)).toBe(value);
  });

  it.each(refuses)('refuses %j', (text) => {
    expect(schema.safeParse(text).success).toBe(false);
  });
}

describe('queryInteger', () => {
  const budget = queryInteger(500, 100_000);

  itReads(
    budget,
    [
      ['500', 500],
      ['100000', 100_000],
      ['0600', 600],
    ],
    [
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
    ],
  );

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
  itReads(
    queryDecimal(0, 1),
    [
      ['0', 0],
      ['1', 1],
      ['0.75', 0.75],
    ],
    ['.5', '0.', '1e-1', '0x1', '', ' 0.5', '1.01', '-0.1'],
  );
});
