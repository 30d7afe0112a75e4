// Points the official `ollama` client at accord-mock's /api/chat and checks that it parses the
// replies, whole and streamed (NDJSON), and reads its error envelope.
// Usage: node check_ollama.mjs /path/to/accord-mock
import assert from 'node:assert/strict';
import { Ollama } from 'ollama';
import { mockPathArg, startMock, checks, value, schema as invoiceSchema, messages } from './start_mock.mjs';

const mockPath = mockPathArg('check_ollama.mjs');

// The invoice schema as this check has always sent it in `format`: without additionalProperties.
const { additionalProperties, ...schema } = invoiceSchema;

// One reply per check below, in the same order.
const replies = [
  { json: value }, // whole
  { truncated: '{"vendor":"AC' }, // done_reason length
  { tool_calls: [{ name: 'lookup', arguments: { id: 7 } }] }, // a tool call
  { status: 404, error: { message: 'model "nope" not found, try pulling it first' } },
  { json: value, stream_chunk_chars: 5 }, // streamed
  { truncated: '{"vendor":"AC', stream_chunk_chars: 3 }, // streamed, cut off
];

const { child, root } = await startMock(mockPath, replies);
const { check, finish } = checks(child);

const ollama = new Ollama({ host: root });

// The streamed parts, and the text they carry.
async function streamed(request) {
  const parts = [];
  for await (const part of await ollama.chat({ ...request, stream: true })) parts.push(part);
  return { parts, text: parts.map((p) => p.message.content).join('') };
}

try {
  await check('ollama chat parses a reply with its counts', async () => {
    const response = await ollama.chat({ model: 'llama3.2', messages, format: schema });
    assert.equal(response.model, 'llama3.2');
    assert.equal(response.done, true);
    assert.equal(response.done_reason, 'stop');
    assert.deepEqual(JSON.parse(response.message.content), value);
    assert.ok(response.prompt_eval_count > 0 && response.eval_count > 0);
  });

  await check('ollama chat reads a cut-off as done_reason length', async () => {
    const response = await ollama.chat({ model: 'llama3.2', messages, format: schema });
    assert.equal(response.done_reason, 'length');
    assert.equal(response.message.content, '{"vendor":"AC');
  });

  await check('ollama chat reads tool calls with object arguments', async () => {
    const response = await ollama.chat({
      model: 'llama3.2',
      messages,
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
    });
    assert.equal(response.message.tool_calls[0].function.name, 'lookup');
    assert.deepEqual(response.message.tool_calls[0].function.arguments, { id: 7 });
  });

  await check('ollama chat throws its error envelope as a ResponseError', async () => {
    await assert.rejects(ollama.chat({ model: 'nope', messages }), (error) => {
      assert.equal(error.status_code, 404);
      assert.match(error.error, /not found, try pulling it first/);
      return true;
    });
  });

  await check('ollama streamed chat folds its NDJSON lines into the reply', async () => {
    const { parts, text } = await streamed({ model: 'llama3.2', messages, format: schema });
    assert.ok(parts.length > 2);
    assert.deepEqual(JSON.parse(text), value);
    const last = parts.at(-1);
    assert.equal(last.done, true);
    assert.equal(last.done_reason, 'stop');
    assert.ok(last.eval_count > 0);
  });

  await check('ollama streamed cut-off ends with done_reason length', async () => {
    const { parts, text } = await streamed({ model: 'llama3.2', messages, format: schema });
    assert.equal(text, '{"vendor":"AC');
    assert.equal(parts.at(-1).done_reason, 'length');
  });
} finally {
  finish();
}
console.log('all ollama SDK checks passed');
