import type { FastifyReply, FastifyRequest } from 'fastify';
import { EarlyAnswers } from './early-answers';

const request = {} as FastifyRequest;
const reply = {} as FastifyReply;

describe('EarlyAnswers', () => {
  it('stops at the first answer that answers, in the order they were added', async () => {
    const early = new EarlyAnswers();
    const asked: string[] = [];
    early.add(async () => (asked.push('brain'), false));
    early.add(async () => (asked.push('health'), true));
    early.add(async () => (asked.push('never'), true));
    expect(await early.run(request, reply)).toBe(true);
    expect(asked).toEqual(['brain', 'health']);
  });

  it('lets a request none of them answers go on to Nest', async () => {
    const early = new EarlyAnswers();
    early.add(async () => false);
    expect(await early.run(request, reply)).toBe(false);
    expect(await new EarlyAnswers().run(request, reply)).toBe(false);
  });
});
