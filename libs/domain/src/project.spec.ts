import { createProjectBodySchema } from './project';

describe('createProjectBodySchema', () => {
  const parse = (body: unknown) => createProjectBodySchema.safeParse(body);

  it('trims the name', () => {
    expect(createProjectBodySchema.parse({ name: '  memex \n' })).toEqual({ name: 'memex' });
  });

  it.each([
    ['empty', ''],
    ['spaces only', '   '],
    ['whitespace only', ' \t\n '],
  ])('rejects a name that is %s', (_label, name) => {
    const result = parse({ name });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path)).toEqual([['name']]);
  });

  it('accepts 200 characters', () => {
    expect(parse({ name: 'a'.repeat(200) }).success).toBe(true);
  });

  it('rejects 201 characters', () => {
    const result = parse({ name: 'a'.repeat(201) });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'too_big', path: ['name'] })]);
  });

  it('measures the length after trimming', () => {
    expect(createProjectBodySchema.parse({ name: `  ${'a'.repeat(200)}  ` }).name).toHaveLength(200);
  });

  it('accepts one character', () => {
    expect(parse({ name: 'x' }).success).toBe(true);
  });

  it('rejects NUL in the name', () => {
    expect(parse({ name: 'a\u0000b' }).success).toBe(false);
  });

  it('rejects an unknown key (strict)', () => {
    const result = parse({ name: 'memex', owner: 'me' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: ['owner'] })]);
  });

  it.each([[{}], [{ name: 42 }], [{ name: null }], [null], ['memex']])('rejects %j', (body) => {
    expect(parse(body).success).toBe(false);
  });
});
