import type { PROPOSAL_STATUSES } from './hygiene-api';

export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/**
 * Every move of a hygiene proposal, the one table of them: from which statuses, to which. A
 * pass finds a proposal (again: an expired one comes back, a decided one never), an apply
 * pass that no longer finds it or the deletion of one of its items expires it, an operator
 * applies a pending one or rejects one not yet decided. The review rules and the SQL that
 * moves proposals set-wise both read it.
 */
export const PROPOSAL_MOVES = {
  found: { from: ['pending', 'expired'], to: 'pending' },
  lost: { from: ['pending'], to: 'expired' },
  apply: { from: ['pending'], to: 'applied' },
  reject: { from: ['pending', 'expired'], to: 'rejected' },
} as const satisfies Record<string, { from: readonly ProposalStatus[]; to: ProposalStatus }>;

export type ProposalMove = keyof typeof PROPOSAL_MOVES;

/** Whether a proposal in `status` may make `move`. */
export function proposalMayMove(status: ProposalStatus, move: ProposalMove): boolean {
  return (PROPOSAL_MOVES[move].from as readonly ProposalStatus[]).includes(status);
}
