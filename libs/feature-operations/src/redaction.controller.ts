import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { redactionPassBodySchema, type RedactionPassBody } from '@memex/domain';
import { CallerPrincipal, ProjectOrAdminGuard, ZodPipe, type Principal } from '@memex/server';
import { RedactionPassService } from './redaction-pass.service';

/** Redaction of data stored before it: one step of a pass per request (`memex redact` drives it). */
@Controller('api/v2/redaction')
@UseGuards(ProjectOrAdminGuard)
export class RedactionController {
  constructor(private readonly pass: RedactionPassService) {}

  @Post('pass')
  @HttpCode(200)
  step(@CallerPrincipal() caller: Principal, @Body(new ZodPipe(redactionPassBodySchema)) body: RedactionPassBody) {
    return this.pass.step(caller, body);
  }
}
