import { OpenAiChat, forgetOutputModes } from '@memex/models';
import { MODEL_OUTPUT_JSON_SCHEMA } from '@memex/enrichment';
import { ScriptedLlm } from '../../../test/support/scripted-llm';
import { useScriptedEnrichment } from './scripted-enrichment';

const { ctx } = useScriptedEnrichment();

describe('structured outputs, found once per endpoint', () => {
  const messages = [{ role: 'user' as const, content: 'Say nothing.' }];
  const request = { schema: MODEL_OUTPUT_JSON_SCHEMA };
  let endpoint: ScriptedLlm;
  beforeEach(async () => {
    forgetOutputModes();
    endpoint = await new ScriptedLlm().start();
  });
  afterEach(() => endpoint.stop());
  const chat = () => new OpenAiChat({ ...ctx.server.config, LLM_BASE_URL: endpoint.url, LLM_MODEL: 'small' });

  it('falls back to json_object where the schema is refused, and remembers it', async () => {
    endpoint.refuses.add('json_schema');
    endpoint.enqueue({ content: '{"items": []}' }, { content: '{"items": []}' });
    const first = chat();
    await first.complete(messages, request);
    expect(first.mode).toBe('json_object');
    await chat().complete(messages, request);
    expect(endpoint.requests.map((r) => r.response_format?.type)).toEqual([
      'json_schema',
      'json_object',
      'json_object',
    ]);
  });

  it('falls back to plain text where JSON modes are refused too, and remembers it', async () => {
    endpoint.refuses.add('json_schema').add('json_object');
    endpoint.enqueue({ content: 'Here you go: {"items": []}' }, { content: '{"items": []}' });
    const answer = await chat().complete(messages, request);
    expect(answer.content).toBe('Here you go: {"items": []}');
    await chat().complete(messages, request);
    expect(endpoint.requests.map((r) => r.response_format?.type ?? 'text')).toEqual([
      'json_schema',
      'json_object',
      'text',
      'text',
    ]);
  });

  it('keeps json_schema where it is taken', async () => {
    endpoint.enqueue({ content: '{"items": []}' }, { content: '{"items": []}' });
    await chat().complete(messages, request);
    await chat().complete(messages, request);
    expect(endpoint.requests.map((r) => r.response_format?.type)).toEqual(['json_schema', 'json_schema']);
  });
});
