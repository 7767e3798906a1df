/**
 * Who is refused for failed authentication, as pure decisions: the AuthFailureLimiter reads the
 * counts (Redis, or memory) and carries these out.
 *
 * The limits block the guesser, not the people who share its address: a wrong credential is
 * blocked by its own failures first; an address only by failures of credentials not yet
 * blocked on their own (many different wrong ones: guessing), at a higher ceiling; and a
 * credential that checks out is never refused for what others sent from its address.
 */

/** What a credential was presented for: the metric's label, and how guessable it is. */
export type CredentialKind = 'project-key' | 'admin-token' | 'metrics-token' | 'queue-board';

/**
 * Secrets an operator chose (the admin token, the metrics token, the board's password, all
 * the admin token or METRICS_TOKEN), which may be weak. A project key is 256 random bits:
 * checking one tells a guesser nothing, so it is always checked, and a valid key always
 * passes. A chosen secret is not checked from a blocked address unless it checked out from
 * that address before (it is "vouched for" there): checking it would tell a guesser the moment
 * a guess is right.
 */
export const OPERATOR_SECRETS: ReadonlySet<CredentialKind> = new Set(['admin-token', 'metrics-token', 'queue-board']);

export interface BeforeCheck {
  kind: CredentialKind;
  /** How long the presented credential is still blocked for its own failures (ms; 0: not). */
  credentialBlockedMs: number;
  /** How long the client address is still blocked (ms; 0: not). */
  addressBlockedMs: number;
  /** The credential checked out from this address before the block (operator secrets only). */
  vouched: boolean;
}

/** Before the credential is checked: how long to refuse it for (429), or 0 to check it. */
export function refusalBeforeCheck(state: BeforeCheck): number {
  // A blocked credential failed again and again, and one that checks out never fails: it is a wrong one.
  if (state.credentialBlockedMs > 0) return state.credentialBlockedMs;
  if (state.addressBlockedMs > 0 && OPERATOR_SECRETS.has(state.kind) && !state.vouched) return state.addressBlockedMs;
  return 0;
}

/**
 * Whether a failure also counts against the client address: only while the credential is not
 * yet blocked on its own. A stale key a hook retries forever then costs its address at most
 * the credential limit per window, and cannot block the office it is sent from.
 */
export function addressPaysFor(credentialFailures: number, credentialLimit: number): boolean {
  return credentialFailures <= credentialLimit;
}

/** After a failure: 429 for as long as the longer block (the credential's or the address's), or 401 (0). */
export function refusalAfterFailure(credentialBlockedMs: number, addressBlockedMs: number): number {
  return Math.max(credentialBlockedMs, addressBlockedMs, 0);
}
