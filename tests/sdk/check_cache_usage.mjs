// The official openai, @anthropic-ai/sdk and @google/genai clients read the cached-input counts in
// accord-mock's usage, whole and streamed: OpenAI's cached_tokens, Anthropic's cache reads and
// writes (the mock's own, for a cache_control prefix sent twice, and a prefix it refuses to mark
// wrongly), Gemini's cachedContentTokenCount.
// Usage: node check_cache_usage.mjs /path/to/accord-mock
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { mockPathArg, startMock, checks, value, messages } from './start_mock.mjs';

const mockPath = mockPathArg('check_cache_usage.mjs');
const cachedChat = { prompt_tokens_details: { cached_tokens: 1024 } };

// One reply per request below, in the same order (the refused request takes none).
const replies = [
  { json: value, usage: cachedChat }, // chat
  { json: value, usage: cachedChat }, // chat, streamed
  { json: value, usage: { input_tokens_details: { cached_tokens: 512 } } }, // responses
  { json: value }, // anthropic, first marked request: a cache write
  { json: value }, // anthropic, the same prefix: a cache read
  { json: value }, // anthropic, streamed: a read again
  { json: value, usage: { promptTokenCount: 300, cachedContentTokenCount: 256 } }, // gemini
];

const { child, root } = await startMock(mockPath, replies);
const { check, finish } = checks(child);
const key = 'sk-test-cache-usage';
const openai = new OpenAI({ apiKey: key, baseURL: `${root}/v1`, maxRetries: 0 });
const anthropic = new Anthropic({ apiKey: key, baseURL: root, maxRetries: 0 });
const gemini = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: root } });

const system = [{ type: 'text', text: 'You read invoices.', cache_control: { type: 'ephemeral' } }];
const marked = [{ role: 'user', content: [{ type: 'text', text: messages[0].content, cache_control: { type: 'ephemeral' } }] }];

try {
  await check('openai chat reads prompt_tokens_details.cached_tokens', async () => {
    const r = await openai.chat.completions.create({ model: 'gpt-test', messages });
    assert.equal(r.usage.prompt_tokens_details.cached_tokens, 1024);
  });

  await check('openai chat stream reads cached_tokens in the usage chunk', async () => {
    const stream = await openai.chat.completions.create({
      model: 'gpt-test', messages, stream: true, stream_options: { include_usage: true } });
    let usage = null;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    assert.equal(usage.prompt_tokens_details.cached_tokens, 1024);
  });

  await check('openai responses reads input_tokens_details.cached_tokens', async () => {
    const r = await openai.responses.create({ model: 'gpt-test', input: messages[0].content });
    assert.equal(r.usage.input_tokens_details.cached_tokens, 512);
  });

  await check('anthropic reads a cache write, then a read of the same marked prefix', async () => {
    const first = await anthropic.messages.create({ model: 'claude-test', max_tokens: 256, system, messages: marked });
    const second = await anthropic.messages.create({ model: 'claude-test', max_tokens: 256, system, messages: marked });
    assert.ok(first.usage.cache_creation_input_tokens > 0);
    assert.equal(first.usage.cache_read_input_tokens, 0);
    assert.equal(second.usage.cache_read_input_tokens, first.usage.cache_creation_input_tokens);
    assert.equal(second.usage.cache_creation_input_tokens, 0);
  });

  await check('anthropic stream carries the cache read in message_start', async () => {
    const stream = anthropic.messages.stream({ model: 'claude-test', max_tokens: 256, system, messages: marked });
    const message = await stream.finalMessage();
    assert.ok(message.usage.cache_read_input_tokens > 0);
  });

  await check('anthropic refuses a cache_control that is not ephemeral', async () => {
    const wrong = [{ type: 'text', text: 'You read invoices.', cache_control: { type: 'persistent' } }];
    await assert.rejects(
      anthropic.messages.create({ model: 'claude-test', max_tokens: 256, system: wrong, messages }),
      (error) => error.status === 400 && /ephemeral/.test(error.message));
  });

  await check('gemini reads usageMetadata.cachedContentTokenCount', async () => {
    const r = await gemini.models.generateContent({ model: 'gemini-test', contents: messages[0].content });
    assert.equal(r.usageMetadata.cachedContentTokenCount, 256);
  });
} finally {
  finish();
}
