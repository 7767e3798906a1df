import {
  Body,
  Controller,
  Delete,
  Get,
  Logger,
  MethodNotAllowedException,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createMemexMcpServer } from '@memex/mcp';
import { ProjectId, ProjectKeyGuard } from '@memex/server';
import { ProjectMemoryFactory } from './project-memory';

/**
 * MCP over Streamable HTTP, stateless: every POST gets its own server and transport bound to
 * the project of its key, so any brain-api replica can answer any request and nothing is kept
 * between them. Answers are plain JSON (no SSE): no tool streams progress.
 */
@Controller('mcp')
@UseGuards(ProjectKeyGuard)
export class McpController {
  private readonly logger = new Logger(McpController.name);

  constructor(private readonly memories: ProjectMemoryFactory) {}

  @Post()
  async post(
    @ProjectId() projectId: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ): Promise<void> {
    const server = createMemexMcpServer(this.memories.forProject(projectId), {
      onInternalError: (error, operation) =>
        this.logger.error({ err: (error as Error)?.message, operation, reqId: request.id }, 'MCP operation failed'),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes the raw response itself; Fastify must not answer too.
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, body);
  }

  /** No server-to-client stream and no sessions to end: the spec's answer is 405. */
  @Get()
  stream(): never {
    throw new MethodNotAllowedException('this MCP endpoint is stateless: POST JSON-RPC messages to it');
  }

  @Delete()
  end(): never {
    throw new MethodNotAllowedException('this MCP endpoint keeps no sessions to end');
  }
}
