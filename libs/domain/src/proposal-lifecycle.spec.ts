import { PROPOSAL_STATUSES } from './hygiene-api';
import { PROPOSAL_MOVES, proposalMayMove, type ProposalMove } from './proposal-lifecycle';

describe('the proposal lifecycle', () => {
  it('allows exactly these moves, from each status', () => {
    const allowed = Object.fromEntries(
      PROPOSAL_STATUSES.map((status) => [
        status,
        (Object.keys(PROPOSAL_MOVES) as ProposalMove[]).filter((move) => proposalMayMove(status, move)),
      ]),
    );
    expect(allowed).toEqual({
      // Found again, lost by an apply pass, applied or rejected by an operator.
      pending: ['found', 'lost', 'apply', 'reject'],
      // Decided: nothing moves it again, not even a pass finding it.
      applied: [],
      rejected: [],
      // Not found by the last pass: found again, or rejected; never applied.
      expired: ['found', 'reject'],
    });
  });

  it('moves only to statuses there are', () => {
    for (const move of Object.values(PROPOSAL_MOVES)) expect(PROPOSAL_STATUSES).toContain(move.to);
  });
});
