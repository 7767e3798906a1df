import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  applyProposalBodySchema,
  decisionBodySchema,
  hygieneIdParamsSchema,
  hygieneRunQuerySchema,
  listChangesQuerySchema,
  listHygieneRunsQuerySchema,
  listProposalsQuerySchema,
  startHygieneRunBodySchema,
  type ApplyProposalBody,
  type DecisionBody,
  type HygieneRunQuery,
  type ListChangesQuery,
  type ListHygieneRunsQuery,
  type ListProposalsQuery,
  type StartHygieneRunBody,
} from '@memex/domain';
import {
  CallerPrincipal,
  OPERATOR_SCOPE,
  ProjectOrAdminGuard,
  RedactionService,
  ZodPipe,
  type Principal,
} from '@memex/server';
import { HygieneReviewService } from './hygiene-review.service';

/** Hygiene runs on demand, what they did or would do, and operators' decisions on their proposals. */
@Controller('api/v2/hygiene')
@UseGuards(ProjectOrAdminGuard)
export class HygieneController {
  constructor(
    private readonly hygiene: HygieneReviewService,
    private readonly redaction: RedactionService,
  ) {}

  /** Operators' reasons and edits are kept in history and items: redacted like anything else sent. */
  private redact<T>(caller: Principal, body: T): Promise<T> {
    return this.redaction.value(caller.kind === 'project' ? caller.projectId : OPERATOR_SCOPE, body);
  }

  @Post('runs')
  @HttpCode(202)
  start(@CallerPrincipal() caller: Principal, @Body(new ZodPipe(startHygieneRunBodySchema)) body: StartHygieneRunBody) {
    return this.hygiene.start(caller, body);
  }

  @Get('runs')
  list(
    @CallerPrincipal() caller: Principal,
    @Query(new ZodPipe(listHygieneRunsQuerySchema)) query: ListHygieneRunsQuery,
  ) {
    return this.hygiene.list(caller, query.projectId, query.limit);
  }

  @Get('runs/:id')
  get(
    @CallerPrincipal() caller: Principal,
    @Param(new ZodPipe(hygieneIdParamsSchema)) params: { id: string },
    @Query(new ZodPipe(hygieneRunQuerySchema)) query: HygieneRunQuery,
  ) {
    return this.hygiene.get(caller, params.id, query);
  }

  @Get('proposals')
  proposals(
    @CallerPrincipal() caller: Principal,
    @Query(new ZodPipe(listProposalsQuerySchema)) query: ListProposalsQuery,
  ) {
    return this.hygiene.proposals(caller, query);
  }

  @Get('changes')
  changes(@CallerPrincipal() caller: Principal, @Query(new ZodPipe(listChangesQuerySchema)) query: ListChangesQuery) {
    return this.hygiene.changes(caller, query);
  }

  @Post('proposals/:id/apply')
  @HttpCode(200)
  async apply(
    @CallerPrincipal() caller: Principal,
    @Param(new ZodPipe(hygieneIdParamsSchema)) params: { id: string },
    @Body(new ZodPipe(applyProposalBodySchema)) body: ApplyProposalBody,
  ) {
    return this.hygiene.apply(caller, params.id, await this.redact(caller, body));
  }

  @Post('proposals/:id/reject')
  @HttpCode(200)
  async reject(
    @CallerPrincipal() caller: Principal,
    @Param(new ZodPipe(hygieneIdParamsSchema)) params: { id: string },
    @Body(new ZodPipe(decisionBodySchema)) body: DecisionBody,
  ) {
    return this.hygiene.reject(caller, params.id, (await this.redact(caller, body)).reason);
  }

  @Post('changes/:id/revert')
  @HttpCode(200)
  async revert(
    @CallerPrincipal() caller: Principal,
    @Param(new ZodPipe(hygieneIdParamsSchema)) params: { id: string },
    @Body(new ZodPipe(decisionBodySchema)) body: DecisionBody,
  ) {
    return this.hygiene.revert(caller, params.id, (await this.redact(caller, body)).reason);
  }
}
