// Points the official `openai` and `@anthropic-ai/sdk` clients at accord-mock and checks that they
// parse its replies. Usage: node check.mjs /path/to/accord-mock
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { mockPathArg, startMock, checks, value, schema, messages } from './start_mock.mjs';

const mockPath = mockPathArg('check.mjs');

const SENTINEL = 'sk-test-SENTINEL-123';

// One reply per check below, in the same order.
const replies = [
  { json: value }, // chat completion
  { json: value }, // chat completion through the SDK's parse() helper
  { json: value }, // responses: output_text
  { json: value }, // anthropic message
  { json: value }, // chat, forced tool
  { json: value }, // responses, forced tool
  { json: value }, // anthropic, forced tool
  { refusal: "I can't help with that." }, // chat refusal
  { truncated: '{"vendor":"AC' }, // anthropic max_tokens
  { status: 429, error: { type: 'insufficient_quota', code: 'insufficient_quota' } }, // openai error
  { status: 529 }, // anthropic overloaded
  // Streamed: each SDK's own stream reader folds accord-mock's events back into a reply.
  { json: value, stream_chunk_chars: 5 }, // chat stream
  { json: value, stream_chunk_chars: 3 }, // chat stream, forced tool
  { json: value, stream_chunk_chars: 4 }, // responses stream
  { json: value, stream_chunk_chars: 6 }, // responses stream, forced tool
  { json: value, stream_chunk_chars: 5 }, // anthropic stream
  { json: value, stream_chunk_chars: 2 }, // anthropic stream, forced tool
  { truncated: '{"vendor":"AC', stream_chunk_chars: 4 }, // anthropic stream, max_tokens
  { refusal: "I can't help with that." }, // chat stream refusal
];

const { child, root } = await startMock(mockPath, replies);
const { check, finish } = checks(child);

const openai = new OpenAI({ apiKey: SENTINEL, baseURL: `${root}/v1`, maxRetries: 0 });
const anthropic = new Anthropic({ apiKey: SENTINEL, baseURL: root, maxRetries: 0 });
const responseFormat = { type: 'json_schema', json_schema: { name: 'invoice', strict: true, schema } };

try {
  await check('openai chat.completions.create parses a completion', async () => {
    const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages, response_format: responseFormat });
    assert.equal(completion.object, 'chat.completion');
    assert.equal(completion.model, 'gpt-4o');
    assert.equal(completion.choices[0].finish_reason, 'stop');
    assert.deepEqual(JSON.parse(completion.choices[0].message.content), value);
    assert.ok(completion.usage.total_tokens > 0);
  });

  await check('openai chat.completions.parse fills message.parsed', async () => {
    const completion = await openai.chat.completions.parse({ model: 'gpt-4o', messages, response_format: responseFormat });
    assert.deepEqual(completion.choices[0].message.parsed, value);
  });

  await check('openai responses.create exposes output_text', async () => {
    const response = await openai.responses.create({
      model: 'gpt-4.1',
      input: 'ACME Corp billed 1,250.00 EUR.',
      text: { format: { type: 'json_schema', name: 'invoice', strict: true, schema } },
    });
    assert.equal(response.status, 'completed');
    assert.deepEqual(JSON.parse(response.output_text), value);
  });

  await check('anthropic messages.create parses a message', async () => {
    const message = await anthropic.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages,
      output_config: { format: { type: 'json_schema', schema } },
    });
    assert.equal(message.type, 'message');
    assert.equal(message.stop_reason, 'end_turn');
    assert.equal(message.content[0].type, 'text');
    assert.deepEqual(JSON.parse(message.content[0].text), value);
    assert.ok(message.usage.output_tokens > 0);
  });

  await check('openai chat forced tool call has string arguments', async () => {
    const completion = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages,
      tools: [{ type: 'function', function: { name: 'record', strict: true, parameters: schema } }],
      tool_choice: { type: 'function', function: { name: 'record' } },
    });
    const call = completion.choices[0].message.tool_calls[0];
    assert.equal(call.function.name, 'record');
    assert.deepEqual(JSON.parse(call.function.arguments), value);
  });

  await check('openai responses forced tool is a function_call item', async () => {
    const response = await openai.responses.create({
      model: 'gpt-4.1',
      input: 'ACME Corp billed 1,250.00 EUR.',
      tools: [{ type: 'function', name: 'record', strict: true, parameters: schema }],
      tool_choice: { type: 'function', name: 'record' },
    });
    const item = response.output.find((i) => i.type === 'function_call');
    assert.equal(item.name, 'record');
    assert.deepEqual(JSON.parse(item.arguments), value);
  });

  await check('anthropic forced tool is a tool_use block', async () => {
    const message = await anthropic.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages,
      tools: [{ name: 'record', input_schema: schema }],
      tool_choice: { type: 'tool', name: 'record' },
    });
    assert.equal(message.stop_reason, 'tool_use');
    assert.equal(message.content[0].type, 'tool_use');
    assert.deepEqual(message.content[0].input, value);
  });

  await check('openai chat refusal is message.refusal', async () => {
    const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages });
    assert.equal(completion.choices[0].message.refusal, "I can't help with that.");
    assert.equal(completion.choices[0].message.content, null);
  });

  await check('anthropic truncation is stop_reason max_tokens', async () => {
    const message = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 5, messages });
    assert.equal(message.stop_reason, 'max_tokens');
    assert.equal(message.content[0].text, '{"vendor":"AC');
  });

  await check('openai error envelope becomes an APIError with code', async () => {
    await assert.rejects(openai.chat.completions.create({ model: 'gpt-4o', messages }), (error) => {
      assert.ok(error instanceof OpenAI.APIError, `not an APIError: ${error}`);
      assert.equal(error.status, 429);
      assert.equal(error.code, 'insufficient_quota');
      assert.equal(error.type, 'insufficient_quota');
      return true;
    });
  });

  await check('anthropic error envelope becomes an APIError with its type', async () => {
    await assert.rejects(anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 5, messages }), (error) => {
      assert.ok(error instanceof Anthropic.APIError, `not an APIError: ${error}`);
      assert.equal(error.status, 529);
      assert.equal(error.error?.error?.type, 'overloaded_error');
      return true;
    });
  });

  await check('the mock logged every SDK request without the key', async () => {
    const text = await (await fetch(`${root}/_accord/requests`)).text();
    assert.ok(!text.includes('SENTINEL'), 'the key leaked into /_accord/requests');
    const entries = JSON.parse(text);
    assert.equal(entries.length, 11);
    // Each SDK sent its key in some header (the Anthropic SDK has used both x-api-key and
    // authorization); whichever it was, the log shows it redacted.
    for (const entry of entries) {
      const credentials = ['authorization', 'x-api-key'].filter((h) => h in entry.headers);
      assert.ok(credentials.length > 0, `no credential header logged for ${entry.path}`);
      for (const h of credentials) assert.equal(entry.headers[h], '[redacted]');
    }
  });

  await check('openai chat.completions.stream folds the chunks into the completion', async () => {
    const stream = openai.chat.completions.stream({
      model: 'gpt-4o',
      messages,
      response_format: responseFormat,
      stream_options: { include_usage: true },
    });
    const completion = await stream.finalChatCompletion();
    assert.equal(completion.choices[0].finish_reason, 'stop');
    assert.deepEqual(JSON.parse(completion.choices[0].message.content), value);
    assert.ok(completion.usage?.total_tokens > 0, 'no usage chunk');
  });

  await check('openai chat stream of a forced tool call assembles its arguments', async () => {
    const stream = openai.chat.completions.stream({
      model: 'gpt-4o',
      messages,
      tools: [{ type: 'function', function: { name: 'record', strict: true, parameters: schema } }],
      tool_choice: { type: 'function', function: { name: 'record' } },
    });
    const completion = await stream.finalChatCompletion();
    const call = completion.choices[0].message.tool_calls[0];
    assert.equal(call.function.name, 'record');
    assert.deepEqual(JSON.parse(call.function.arguments), value);
  });

  await check('openai responses.stream ends with the whole response', async () => {
    const stream = openai.responses.stream({
      model: 'gpt-4.1',
      input: 'ACME Corp billed 1,250.00 EUR.',
      text: { format: { type: 'json_schema', name: 'invoice', strict: true, schema } },
    });
    const response = await stream.finalResponse();
    assert.equal(response.status, 'completed');
    assert.deepEqual(JSON.parse(response.output_text), value);
  });

  await check('openai responses stream of a forced tool is a function_call item', async () => {
    const stream = openai.responses.stream({
      model: 'gpt-4.1',
      input: 'ACME Corp billed 1,250.00 EUR.',
      tools: [{ type: 'function', name: 'record', strict: true, parameters: schema }],
      tool_choice: { type: 'function', name: 'record' },
    });
    const response = await stream.finalResponse();
    const item = response.output.find((i) => i.type === 'function_call');
    assert.equal(item.name, 'record');
    assert.deepEqual(JSON.parse(item.arguments), value);
  });

  await check('anthropic messages.stream folds the events into the message', async () => {
    const stream = anthropic.messages.stream({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages,
      output_config: { format: { type: 'json_schema', schema } },
    });
    const message = await stream.finalMessage();
    assert.equal(message.stop_reason, 'end_turn');
    assert.deepEqual(JSON.parse(message.content[0].text), value);
    assert.ok(message.usage.output_tokens > 0);
  });

  await check('anthropic stream of a forced tool parses the input_json deltas', async () => {
    const stream = anthropic.messages.stream({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages,
      tools: [{ name: 'record', input_schema: schema }],
      tool_choice: { type: 'tool', name: 'record' },
    });
    const message = await stream.finalMessage();
    assert.equal(message.stop_reason, 'tool_use');
    assert.equal(message.content[0].type, 'tool_use');
    assert.deepEqual(message.content[0].input, value);
  });

  await check('anthropic streamed truncation is stop_reason max_tokens', async () => {
    const stream = anthropic.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 5, messages });
    const message = await stream.finalMessage();
    assert.equal(message.stop_reason, 'max_tokens');
    assert.equal(message.content[0].text, '{"vendor":"AC');
  });

  await check('openai chat streamed refusal is message.refusal', async () => {
    const stream = openai.chat.completions.stream({ model: 'gpt-4o', messages });
    const completion = await stream.finalChatCompletion();
    assert.equal(completion.choices[0].message.refusal, "I can't help with that.");
  });
} finally {
  finish();
}
console.log('all SDK checks passed');
