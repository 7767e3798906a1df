import {
  OPERATOR_SECRETS,
  addressPaysFor,
  refusalAfterFailure,
  refusalBeforeCheck,
  type CredentialKind,
} from './auth-limit-rules';

const KINDS: CredentialKind[] = ['project-key', 'admin-token', 'metrics-token', 'queue-board'];
const clear = { credentialBlockedMs: 0, addressBlockedMs: 0, vouched: false };

describe('refusalBeforeCheck', () => {
  it.each(KINDS)('checks a %s nothing blocks', (kind) => {
    expect(refusalBeforeCheck({ kind, ...clear })).toBe(0);
  });

  it.each(KINDS)('refuses a blocked %s unchecked, vouched for or not: a blocked credential is a wrong one', (kind) => {
    expect(refusalBeforeCheck({ kind, ...clear, credentialBlockedMs: 5000 })).toBe(5000);
    expect(refusalBeforeCheck({ kind, ...clear, credentialBlockedMs: 5000, vouched: true })).toBe(5000);
  });

  it('always checks a project key from a blocked address: a valid key passes, whatever its neighbours sent', () => {
    expect(refusalBeforeCheck({ kind: 'project-key', ...clear, addressBlockedMs: 9000 })).toBe(0);
  });

  it.each([...OPERATOR_SECRETS])(
    'refuses a %s from a blocked address unless it checked out from there before',
    (kind) => {
      expect(refusalBeforeCheck({ kind, ...clear, addressBlockedMs: 9000 })).toBe(9000);
      expect(refusalBeforeCheck({ kind, ...clear, addressBlockedMs: 9000, vouched: true })).toBe(0);
    },
  );
});

describe('addressPaysFor', () => {
  it('counts a credential against its address only until the credential is blocked on its own', () => {
    const limit = 10;
    const paid = Array.from({ length: 50 }, (_, i) => addressPaysFor(i + 1, limit)).filter(Boolean);
    // One stale key retried 50 times costs its address 10 failures, under any higher ceiling.
    expect(paid).toHaveLength(limit);
  });
});

describe('refusalAfterFailure', () => {
  it('answers 401 (0) until a limit is crossed, then 429 for the longer block', () => {
    expect(refusalAfterFailure(0, 0)).toBe(0);
    expect(refusalAfterFailure(3000, 0)).toBe(3000);
    expect(refusalAfterFailure(3000, 7000)).toBe(7000);
  });
});
