// Points the official `openai` package's AzureOpenAI client (and its OpenAI client at the
// /openai/v1 surface) at accord-mock and checks that it parses the Azure-shaped replies, whole and
// streamed. Usage: node check_azure.mjs /path/to/accord-mock
import assert from 'node:assert/strict';
import OpenAI, { AzureOpenAI } from 'openai';
import { mockPathArg, startMock, checks, value, schema, messages } from './start_mock.mjs';

const mockPath = mockPathArg('check_azure.mjs');

const KEY = 'azure-test-key-123';
const responseFormat = { type: 'json_schema', json_schema: { name: 'invoice', strict: true, schema } };
const tools = [{ type: 'function', function: { name: 'record', strict: true, parameters: schema } }];
const toolChoice = { type: 'function', function: { name: 'record' } };

// One reply per check below, in the same order.
const replies = [
  { json: value }, // deployment chat completion
  { json: value }, // forced tool
  { content_filter: '{"vendor":' }, // output filtered
  { status: 400, error: { code: 'content_filter', param: 'prompt', innererror: { code: 'ResponsibleAIPolicyViolation' } } },
  { json: value }, // v1 surface
  { json: value, stream_chunk_chars: 5 }, // stream
  { json: value, stream_chunk_chars: 3 }, // stream, forced tool
  { content_filter: '{"vendor":' }, // stream, filtered
];

const { child, root } = await startMock(mockPath, replies);
const { check, finish } = checks(child);
const azure = new AzureOpenAI({
  endpoint: root,
  apiKey: KEY,
  apiVersion: '2024-10-21',
  deployment: 'invoices',
  maxRetries: 0,
});

try {
  await check('AzureOpenAI chat.completions.create reads the content, usage and annotations', async () => {
    const completion = await azure.chat.completions.create({ model: 'invoices', messages, response_format: responseFormat });
    assert.equal(completion.choices[0].finish_reason, 'stop');
    assert.deepEqual(JSON.parse(completion.choices[0].message.content), value);
    assert.ok(completion.usage.total_tokens > 0);
    assert.equal(completion.choices[0].content_filter_results.violence.filtered, false);
    assert.equal(completion.prompt_filter_results[0].content_filter_results.hate.severity, 'safe');
    const sent = await (await fetch(`${root}/_accord/requests`)).json();
    assert.equal(sent[0].path, '/openai/deployments/invoices/chat/completions');
    assert.equal(sent[0].headers['api-key'], '[redacted]');
  });

  await check('AzureOpenAI forced tool call carries the arguments', async () => {
    const completion = await azure.chat.completions.create({ model: 'invoices', messages, tools, tool_choice: toolChoice });
    const call = completion.choices[0].message.tool_calls[0];
    assert.equal(call.function.name, 'record');
    assert.deepEqual(JSON.parse(call.function.arguments), value);
  });

  await check('AzureOpenAI filtered output is finish_reason content_filter with a filtered annotation', async () => {
    const completion = await azure.chat.completions.create({ model: 'invoices', messages });
    assert.equal(completion.choices[0].finish_reason, 'content_filter');
    assert.equal(completion.choices[0].content_filter_results.violence.filtered, true);
  });

  await check('AzureOpenAI filtered prompt is a 400 with code content_filter', async () => {
    await assert.rejects(azure.chat.completions.create({ model: 'invoices', messages }), (error) => {
      assert.equal(error.status, 400);
      assert.equal(error.code, 'content_filter');
      return true;
    });
  });

  await check('the /openai/v1 surface takes a bearer token and no api-version', async () => {
    const v1 = new OpenAI({ baseURL: `${root}/openai/v1`, apiKey: KEY, maxRetries: 0 });
    const completion = await v1.chat.completions.create({ model: 'invoices', messages, response_format: responseFormat });
    assert.deepEqual(JSON.parse(completion.choices[0].message.content), value);
  });

  await check('AzureOpenAI stream folds the chunks, the prompt-filter chunk first', async () => {
    const stream = azure.chat.completions.stream({
      model: 'invoices',
      messages,
      response_format: responseFormat,
      stream_options: { include_usage: true },
    });
    const completion = await stream.finalChatCompletion();
    assert.equal(completion.choices[0].finish_reason, 'stop');
    assert.deepEqual(JSON.parse(completion.choices[0].message.content), value);
    assert.ok(completion.usage?.total_tokens > 0, 'no usage chunk');
  });

  await check('AzureOpenAI stream of a forced tool call assembles its arguments', async () => {
    const stream = azure.chat.completions.stream({ model: 'invoices', messages, tools, tool_choice: toolChoice });
    const completion = await stream.finalChatCompletion();
    const call = completion.choices[0].message.tool_calls[0];
    assert.equal(call.function.name, 'record');
    assert.deepEqual(JSON.parse(call.function.arguments), value);
  });

  await check('AzureOpenAI streamed filter stop is finish_reason content_filter', async () => {
    const stream = azure.chat.completions.stream({ model: 'invoices', messages });
    const completion = await stream.finalChatCompletion();
    assert.equal(completion.choices[0].finish_reason, 'content_filter');
  });

  await check('a deployment URL without api-version is Azure\'s 404', async () => {
    const response = await fetch(`${root}/openai/deployments/invoices/chat/completions`, {
      method: 'POST',
      headers: { 'api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ messages }),
    });
    assert.equal(response.status, 404);
    assert.equal((await response.json()).error.code, '404');
  });
} finally {
  finish();
}
console.log('all Azure SDK checks passed');
