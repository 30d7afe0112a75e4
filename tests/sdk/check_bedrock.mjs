// Points the official `@aws-sdk/client-bedrock-runtime` client at accord-mock, signing with the
// mock's test key pair (SigV4, which the mock checks as AWS does), and checks that it parses the
// mock's Converse replies whole and streamed (the AWS event-stream framing): text, toolUse,
// stopReason, usage, an AWS error, and a bad signature refused.
// Usage: node check_bedrock.mjs /path/to/accord-mock
import assert from 'node:assert/strict';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
} from '@aws-sdk/client-bedrock-runtime';
// The SDK's own dependency: this client speaks HTTP/2 by default, accord-mock HTTP/1.1.
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { mockPathArg, startMock, checks, value, schema } from './start_mock.mjs';

const mockPath = mockPathArg('check_bedrock.mjs');

// One reply per request below, in the same order (the bad signature consumes none).
const replies = [
  { json: value }, // converse, native structured output
  { json: value }, // converse, forced tool
  { truncated: '{"vendor":"AC' }, // max_tokens
  { content_filter: 'Sorry, that is blocked.' }, // guardrail
  { status: 429 }, // ThrottlingException
  { json: value, stream_chunk_chars: 5 }, // stream, text
  { json: value, stream_chunk_chars: 3 }, // stream, forced tool
  { truncated: '{"vendor":"AC', stream_chunk_chars: 4 }, // stream, max_tokens
];

const { child, root } = await startMock(mockPath, replies);
const { check, finish } = checks(child);

function client(secretAccessKey) {
  return new BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: root,
    credentials: { accessKeyId: 'AKIDACCORDMOCKTEST', secretAccessKey },
    requestHandler: new NodeHttpHandler(),
    maxAttempts: 1,
  });
}
const bedrock = client('accord-mock-test-secret-key');
// A model id with ':' is signed with its path encoded twice: the mock's check must agree.
const modelId = 'anthropic.claude-haiku-4-5-20251001-v1:0';
const messages = [{ role: 'user', content: [{ text: 'ACME Corp billed 1,250.00 EUR.' }] }];
const outputConfig = {
  textFormat: {
    type: 'json_schema',
    structure: { jsonSchema: { schema: JSON.stringify(schema), name: 'invoice' } },
  },
};
const toolConfig = {
  tools: [{ toolSpec: { name: 'invoice', inputSchema: { json: schema } } }],
  toolChoice: { tool: { name: 'invoice' } },
};

async function streamed(input) {
  const response = await bedrock.send(new ConverseStreamCommand(input));
  const out = { text: '', input: '', events: [] };
  for await (const event of response.stream) {
    const [type] = Object.keys(event);
    out.events.push(type);
    if (event.contentBlockStart?.start?.toolUse) out.tool = event.contentBlockStart.start.toolUse;
    if (event.contentBlockDelta?.delta?.text) out.text += event.contentBlockDelta.delta.text;
    if (event.contentBlockDelta?.delta?.toolUse) out.input += event.contentBlockDelta.delta.toolUse.input;
    if (event.messageStop) out.stopReason = event.messageStop.stopReason;
    if (event.metadata) out.usage = event.metadata.usage;
  }
  return out;
}

try {
  await check('converse: outputConfig json_schema text, stopReason, usage', async () => {
    const r = await bedrock.send(new ConverseCommand({ modelId, messages, outputConfig }));
    assert.equal(r.stopReason, 'end_turn');
    assert.deepEqual(JSON.parse(r.output.message.content[0].text), value);
    assert.ok(r.usage.inputTokens > 0 && r.usage.outputTokens > 0);
    assert.equal(r.usage.totalTokens, r.usage.inputTokens + r.usage.outputTokens);
  });
  await check('converse: forced tool is a toolUse block', async () => {
    const r = await bedrock.send(new ConverseCommand({ modelId, messages, toolConfig }));
    assert.equal(r.stopReason, 'tool_use');
    const use = r.output.message.content[0].toolUse;
    assert.equal(use.name, 'invoice');
    assert.ok(use.toolUseId);
    assert.deepEqual(use.input, value);
  });
  await check('converse: max_tokens', async () => {
    const r = await bedrock.send(new ConverseCommand({ modelId, messages }));
    assert.equal(r.stopReason, 'max_tokens');
    assert.equal(r.output.message.content[0].text, '{"vendor":"AC');
  });
  await check('converse: guardrail_intervened', async () => {
    const r = await bedrock.send(new ConverseCommand({ modelId, messages }));
    assert.equal(r.stopReason, 'guardrail_intervened');
  });
  await check('converse: 429 is a ThrottlingException', async () => {
    await assert.rejects(bedrock.send(new ConverseCommand({ modelId, messages })), (error) => {
      assert.equal(error.name, 'ThrottlingException');
      assert.equal(error.$metadata.httpStatusCode, 429);
      return true;
    });
  });
  await check('converse: a wrong secret is refused with 403 InvalidSignatureException', async () => {
    await assert.rejects(
      client('not-the-secret').send(new ConverseCommand({ modelId, messages })),
      (error) => {
        assert.equal(error.$metadata.httpStatusCode, 403);
        assert.equal(error.name, 'InvalidSignatureException');
        return true;
      },
    );
  });
  await check('converse-stream: event-stream text, stopReason, usage', async () => {
    const s = await streamed({ modelId, messages, outputConfig });
    assert.deepEqual(JSON.parse(s.text), value);
    assert.equal(s.stopReason, 'end_turn');
    assert.ok(s.usage.outputTokens > 0);
    assert.equal(s.events[0], 'messageStart');
    assert.equal(s.events.at(-1), 'metadata');
  });
  await check('converse-stream: forced tool input deltas', async () => {
    const s = await streamed({ modelId, messages, toolConfig });
    assert.equal(s.tool.name, 'invoice');
    assert.deepEqual(JSON.parse(s.input), value);
    assert.equal(s.stopReason, 'tool_use');
  });
  await check('converse-stream: max_tokens', async () => {
    const s = await streamed({ modelId, messages });
    assert.equal(s.text, '{"vendor":"AC');
    assert.equal(s.stopReason, 'max_tokens');
  });
} finally {
  finish();
}
console.log('all checks passed');
