// Points the official `openai` package's AzureOpenAI client (and its OpenAI client at the
// /openai/v1 surface) at accord-mock's Azure Responses routes and checks that it parses the
// replies, whole and streamed: what accord's azure-openai-responses provider sends and reads.
// Usage: node check_azure_responses.mjs /path/to/accord-mock
import assert from 'node:assert/strict';
import OpenAI, { AzureOpenAI } from 'openai';
import { mockPathArg, startMock, checks, value, schema, messages } from './start_mock.mjs';

const mockPath = mockPathArg('check_azure_responses.mjs');

const KEY = 'azure-test-key-123';
const text = { format: { type: 'json_schema', name: 'invoice', strict: true, schema } };
const tools = [{ type: 'function', name: 'record', strict: true, parameters: schema }];
const toolChoice = { type: 'function', name: 'record' };

// One reply per check below, in the same order.
const replies = [
  { json: value }, // responses.create
  { json: value }, // forced tool
  { status: 400, error: { code: 'content_filter', param: 'prompt', innererror: { code: 'ResponsibleAIPolicyViolation' } } },
  { json: value }, // v1 surface
  { json: value, stream_chunk_chars: 5 }, // stream
];

const { child, root } = await startMock(mockPath, replies);
const { check, finish } = checks(child);
const azure = new AzureOpenAI({ endpoint: root, apiKey: KEY, apiVersion: '2025-04-01-preview', maxRetries: 0 });

try {
  await check('AzureOpenAI responses.create reads the output text and usage', async () => {
    const response = await azure.responses.create({ model: 'invoices', input: messages, text });
    assert.equal(response.status, 'completed');
    assert.deepEqual(JSON.parse(response.output_text), value);
    assert.ok(response.usage.total_tokens > 0);
    const sent = await (await fetch(`${root}/_accord/requests`)).json();
    assert.equal(sent[0].path, '/openai/responses');
    assert.equal(sent[0].headers['api-key'], '[redacted]');
    assert.equal(sent[0].body.model, 'invoices');
  });

  await check('AzureOpenAI responses.create with a forced function call carries the arguments', async () => {
    const response = await azure.responses.create({ model: 'invoices', input: messages, tools, tool_choice: toolChoice });
    const call = response.output.find((item) => item.type === 'function_call');
    assert.equal(call.name, 'record');
    assert.deepEqual(JSON.parse(call.arguments), value);
  });

  await check('AzureOpenAI filtered prompt is a 400 with code content_filter', async () => {
    await assert.rejects(azure.responses.create({ model: 'invoices', input: messages }), (error) => {
      assert.equal(error.status, 400);
      assert.equal(error.code, 'content_filter');
      return true;
    });
  });

  await check('the /openai/v1 surface serves responses with a bearer token and no api-version', async () => {
    const v1 = new OpenAI({ baseURL: `${root}/openai/v1`, apiKey: KEY, maxRetries: 0 });
    const response = await v1.responses.create({ model: 'invoices', input: messages, text });
    assert.deepEqual(JSON.parse(response.output_text), value);
  });

  await check('AzureOpenAI responses stream ends with the whole response', async () => {
    const stream = azure.responses.stream({ model: 'invoices', input: messages, text });
    const response = await stream.finalResponse();
    assert.equal(response.status, 'completed');
    assert.deepEqual(JSON.parse(response.output_text), value);
  });

  await check('/openai/responses without api-version is Azure\'s 404', async () => {
    const response = await fetch(`${root}/openai/responses`, {
      method: 'POST',
      headers: { 'api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'invoices', input: messages }),
    });
    assert.equal(response.status, 404);
  });
} finally {
  finish();
}
console.log('all Azure Responses SDK checks passed');
