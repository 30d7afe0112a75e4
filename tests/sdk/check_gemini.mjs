// Points the official `@google/genai` client at accord-mock's Gemini routes and checks that it
// parses the replies, whole and streamed (text, function call, usage, finishReason, a blocked
// prompt, Google's error envelope), and that it sends responseJsonSchema and parametersJsonSchema
// as given (it has no transform of its own for them, so accord's gemini wire reaches the API as is).
// Usage: node check_gemini.mjs /path/to/accord-mock
import assert from 'node:assert/strict';
import { GoogleGenAI, ApiError } from '@google/genai';
import { mockPathArg, startMock, checks, value, schema } from './start_mock.mjs';

const mockPath = mockPathArg('check_gemini.mjs');

const SENTINEL = 'gm-test-SENTINEL-123';

// One reply per check below, in the same order.
const replies = [
  { json: value }, // text
  { json: value }, // forced function call
  { truncated: '{"vendor":"AC' }, // MAX_TOKENS
  { refusal: 'blocked' }, // a blocked prompt
  { content_filter: true }, // finishReason SAFETY
  { status: 429 }, // Google's error envelope
  { json: value, stream_chunk_chars: 5 }, // streamed text
  { json: value, stream_chunk_chars: 3 }, // streamed function call
  { truncated: '{"vendor":"AC', stream_chunk_chars: 4 }, // streamed MAX_TOKENS
];

const { child, root } = await startMock(mockPath, replies);
const { check, finish } = checks(child);

const ai = new GoogleGenAI({ apiKey: SENTINEL, httpOptions: { baseUrl: root } });
const model = 'gemini-2.5-flash';
const contents = 'ACME Corp billed 1,250.00 EUR.';
const jsonConfig = { responseMimeType: 'application/json', responseJsonSchema: schema };
const forcedConfig = {
  tools: [{ functionDeclarations: [{ name: 'extract', parametersJsonSchema: schema }] }],
  toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['extract'] } },
};

async function lastRequestBody() {
  const log = JSON.parse(await (await fetch(`${root}/_accord/requests`)).text());
  return log[log.length - 1].body;
}

// Each streamed chunk's text joined, its function calls, and the last chunk (finishReason, usage).
async function drain(stream) {
  let text = '';
  let last;
  const calls = [];
  for await (const chunk of stream) {
    // `chunk.text` would warn on a chunk holding a call: the calls have their own accessor.
    if (chunk.functionCalls) calls.push(...chunk.functionCalls);
    else text += chunk.text ?? '';
    last = chunk;
  }
  return { text, last, calls };
}

try {
  await check('gemini generateContent text is the JSON value, with usage', async () => {
    const response = await ai.models.generateContent({ model, contents, config: jsonConfig });
    assert.deepEqual(JSON.parse(response.text), value);
    assert.equal(response.candidates[0].finishReason, 'STOP');
    assert.ok(response.usageMetadata.totalTokenCount > 0);
    const body = await lastRequestBody();
    assert.deepEqual(body.generationConfig.responseJsonSchema, schema, 'sent as given');
  });
  await check('gemini forced function call carries the value as args', async () => {
    const response = await ai.models.generateContent({ model, contents, config: forcedConfig });
    assert.equal(response.functionCalls.length, 1);
    assert.equal(response.functionCalls[0].name, 'extract');
    assert.deepEqual(response.functionCalls[0].args, value);
    const body = await lastRequestBody();
    assert.deepEqual(body.tools[0].functionDeclarations[0].parametersJsonSchema, schema);
  });
  await check('gemini truncation is finishReason MAX_TOKENS with the text so far', async () => {
    const response = await ai.models.generateContent({ model, contents, config: jsonConfig });
    assert.equal(response.candidates[0].finishReason, 'MAX_TOKENS');
    assert.equal(response.text, '{"vendor":"AC');
  });
  await check('gemini blocked prompt is promptFeedback.blockReason', async () => {
    const response = await ai.models.generateContent({ model, contents, config: jsonConfig });
    assert.equal(response.promptFeedback.blockReason, 'SAFETY');
    assert.equal(response.candidates, undefined);
  });
  await check('gemini content filter is finishReason SAFETY', async () => {
    const response = await ai.models.generateContent({ model, contents, config: jsonConfig });
    assert.equal(response.candidates[0].finishReason, 'SAFETY');
  });
  await check("gemini 429 is an ApiError with Google's envelope", async () => {
    await assert.rejects(
      ai.models.generateContent({ model, contents, config: jsonConfig }),
      (error) =>
        error instanceof ApiError && error.status === 429 && error.message.includes('RESOURCE_EXHAUSTED'),
    );
  });
  await check('gemini streamed text joins to the value and ends with STOP and usage', async () => {
    const { text, last } = await drain(
      await ai.models.generateContentStream({ model, contents, config: jsonConfig }),
    );
    assert.deepEqual(JSON.parse(text), value);
    assert.equal(last.candidates[0].finishReason, 'STOP');
    assert.ok(last.usageMetadata.totalTokenCount > 0);
  });
  await check('gemini streamed function call arrives whole', async () => {
    const { calls, last } = await drain(
      await ai.models.generateContentStream({ model, contents, config: forcedConfig }),
    );
    assert.equal(calls.length, 1);
    assert.deepEqual(calls[0].args, value);
    assert.equal(last.candidates[0].finishReason, 'STOP');
  });
  await check('gemini streamed truncation ends with MAX_TOKENS', async () => {
    const { text, last } = await drain(
      await ai.models.generateContentStream({ model, contents, config: jsonConfig }),
    );
    assert.equal(text, '{"vendor":"AC');
    assert.equal(last.candidates[0].finishReason, 'MAX_TOKENS');
  });
  await check('the key never reaches the request log', async () => {
    const text = await (await fetch(`${root}/_accord/requests`)).text();
    assert.ok(!text.includes('SENTINEL'), 'the key leaked into /_accord/requests');
  });
} finally {
  finish();
}
console.log('all SDK checks passed');
