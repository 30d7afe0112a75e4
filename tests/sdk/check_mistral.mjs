// Points the official `@mistralai/mistralai` client at accord-mock and checks that it parses the
// replies, whole and streamed (its stream schema needs function.name in every tool-call chunk).
// Usage: node check_mistral.mjs /path/to/accord-mock
import assert from 'node:assert/strict';
import { Mistral } from '@mistralai/mistralai';
import { mockPathArg, startMock, checks, value, schema, messages } from './start_mock.mjs';

const mockPath = mockPathArg('check_mistral.mjs');

const responseFormat = { type: 'json_schema', jsonSchema: { name: 'invoice', strict: true, schemaDefinition: schema } };
const tools = [{ type: 'function', function: { name: 'record', strict: true, parameters: schema } }];
const toolChoice = { type: 'function', function: { name: 'record' } };

// One reply per check below, in the same order.
const replies = [
  { json: value }, // chat.complete
  { json: value }, // forced tool
  { truncated: '{"vendor":"AC' }, // length
  { json: value, stream_chunk_chars: 5 }, // stream
  { json: value, stream_chunk_chars: 3 }, // stream, forced tool
];

const { child, root } = await startMock(mockPath, replies);
const { check, finish } = checks(child);
const mistral = new Mistral({ apiKey: 'mistral-test-key', serverURL: root, retryConfig: { strategy: 'none' } });

try {
  await check('mistral chat.complete reads the content, usage and finish reason', async () => {
    const response = await mistral.chat.complete({ model: 'mistral-small-latest', messages, responseFormat });
    assert.equal(response.choices[0].finishReason, 'stop');
    assert.deepEqual(JSON.parse(response.choices[0].message.content), value);
    assert.ok(response.usage.totalTokens > 0);
    const sent = await (await fetch(`${root}/_accord/requests`)).json();
    assert.equal(sent[0].path, '/v1/chat/completions');
    assert.equal(sent[0].body.response_format.json_schema.strict, true);
  });

  await check('mistral forced tool call carries the arguments', async () => {
    const response = await mistral.chat.complete({ model: 'mistral-small-latest', messages, tools, toolChoice });
    const call = response.choices[0].message.toolCalls[0];
    assert.equal(call.function.name, 'record');
    assert.deepEqual(JSON.parse(call.function.arguments), value);
  });

  await check('mistral truncation is finishReason length', async () => {
    const response = await mistral.chat.complete({ model: 'mistral-small-latest', messages, maxTokens: 5 });
    assert.equal(response.choices[0].finishReason, 'length');
    assert.equal(response.choices[0].message.content, '{"vendor":"AC');
  });

  await check('mistral chat.stream chunks fold back into the content', async () => {
    const stream = await mistral.chat.stream({ model: 'mistral-small-latest', messages, responseFormat });
    let content = '';
    let finish = null;
    for await (const event of stream) {
      const choice = event.data.choices[0];
      if (!choice) continue;
      if (typeof choice.delta.content === 'string') content += choice.delta.content;
      if (choice.finishReason) finish = choice.finishReason;
    }
    assert.equal(finish, 'stop');
    assert.deepEqual(JSON.parse(content), value);
  });

  await check('mistral chat.stream of a forced tool call parses every chunk', async () => {
    const stream = await mistral.chat.stream({ model: 'mistral-small-latest', messages, tools, toolChoice });
    let name = '';
    let args = '';
    for await (const event of stream) {
      for (const call of event.data.choices[0]?.delta.toolCalls ?? []) {
        name = call.function.name;
        args += call.function.arguments;
      }
    }
    assert.equal(name, 'record');
    assert.deepEqual(JSON.parse(args), value);
  });
} finally {
  finish();
}
console.log('all Mistral SDK checks passed');
