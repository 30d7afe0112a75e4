// Holds the spans accord writes (examples/otlp_json_tracer.hpp through accord::genai_tracing) to
// OpenTelemetry's own registry of names, @opentelemetry/semantic-conventions: every attribute
// that is not accord's own (`accord.*`) must be a name the conventions define, and the GenAI
// values (operation, provider) must be among their listed values where the provider has one.
// Usage: node check_semconv.mjs ACCORD_MOCK_PATH REFUND_EXAMPLE_PATH
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import * as stable from '@opentelemetry/semantic-conventions';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { startMock, checks } from './start_mock.mjs';

const [mockPath, examplePath] = process.argv.slice(2);
if (!mockPath || !examplePath) {
  console.error('usage: node check_semconv.mjs ACCORD_MOCK_PATH REFUND_EXAMPLE_PATH');
  process.exit(2);
}

const registry = { ...stable, ...incubating };
const attributeNames = new Set(
  Object.entries(registry)
    .filter(([name, value]) => name.startsWith('ATTR_') && typeof value === 'string')
    .map(([, value]) => value),
);
const valuesOf = (prefix) =>
  new Set(Object.entries(registry).filter(([name]) => name.startsWith(prefix)).map(([, v]) => v));
const operations = valuesOf('GEN_AI_OPERATION_NAME_VALUE_');
const providerNames = valuesOf('GEN_AI_PROVIDER_NAME_VALUE_');

const valid = {
  orderId: 'ORD-482913', amount: 42.5, currency: 'EUR', orderDate: '2026-11-02',
  refundDate: '2026-11-20', note: 'Kettle arrived broken.', sku: 'KT-200',
};
const providers = ['openai-chat', 'openai-responses', 'anthropic', 'generic'];
// Per provider: an invalid reply (a correction follows), a 503 (a retry), the valid reply.
const replies = providers.flatMap(() => [{ json: { ...valid, amount: -1 } }, { status: 503 }, { json: valid }]);

const { child, root } = await startMock(mockPath, replies);
const { check, finish } = checks(child);
const otlp = join(mkdtempSync(join(tmpdir(), 'accord-otlp-')), 'spans.jsonl');
try {
  for (const provider of providers) {
    // openai-chat's calls set the sampling, whose attributes are held to the registry too.
    const sampling = provider === 'openai-chat' ? ['--temperature', '0.25', '--top-p', '0.5', '--seed', '7'] : [];
    execFileSync(examplePath, ['--provider', provider, '--base-url', `${root}/v1`,
      '--model', 'test-model', '--otlp', otlp, ...sampling], { stdio: ['ignore', 'ignore', 'ignore'],
      env: { ...process.env, OPENAI_API_KEY: 'sk-test-SENTINEL-123', ANTHROPIC_API_KEY: 'sk-test-SENTINEL-123' } });
  }
  const spans = readFileSync(otlp, 'utf8').trim().split('\n').map((line) => {
    const request = JSON.parse(line);
    return request.resourceSpans[0].scopeSpans[0].spans[0];
  });
  // Each provider: one call span and three chat spans (the invalid reply, the correction that
  // met a 503 and was retried, and the valid reply are two requests; the retry is an event).
  await check('every call wrote its spans', () => assert.equal(spans.length, providers.length * 3));
  for (const span of spans) {
    const keys = [...span.attributes, ...span.events.flatMap((event) => event.attributes)].map((a) => a.key);
    await check(`${span.name}: every attribute is a convention's or accord's own`, () => {
      const unknown = keys.filter((key) => !key.startsWith('accord.') && !attributeNames.has(key));
      assert.deepEqual(unknown, []);
    });
    await check(`${span.name}: a CLIENT span`, () => assert.equal(span.kind, 3));
    const attribute = (key) => span.attributes.find((a) => a.key === key)?.value?.stringValue;
    await check(`${span.name}: gen_ai.operation.name is a listed operation`, () =>
      assert.ok(operations.has(attribute('gen_ai.operation.name')), attribute('gen_ai.operation.name')));
    const system = attribute('gen_ai.provider.name');
    if (system !== 'generic') {
      await check(`${span.name}: gen_ai.provider.name is a listed provider`, () =>
        assert.ok(providerNames.has(system), system));
    }
  }
  const chats = spans.filter((span) => span.name === 'chat test-model');
  const sampled = chats.filter((span) => span.attributes.some((a) => a.key === 'gen_ai.request.seed'));
  await check('the sampling a call sets is on its chat spans', () => {
    assert.equal(sampled.length, 2);
    for (const span of sampled) {
      const value = (key) => span.attributes.find((a) => a.key === key)?.value;
      assert.equal(value('gen_ai.request.temperature')?.doubleValue, 0.25);
      assert.equal(value('gen_ai.request.top_p')?.doubleValue, 0.5);
      assert.equal(String(value('gen_ai.request.seed')?.intValue), '7');
    }
  });
  await check('chat spans are children of their call span', () =>
    assert.ok(chats.every((span) => spans.some((p) => p.spanId === span.parentSpanId && p.name === 'extract refund'))));
  await check('the retried request carries a retry event', () =>
    assert.ok(chats.some((span) => span.events.some((event) => event.name === 'accord.retry'))));
  await check('the invalid reply is an error of type invalid_output', () =>
    assert.ok(chats.some((span) => span.status.code === 2 &&
      span.attributes.some((a) => a.key === 'error.type' && a.value.stringValue === 'invalid_output'))));
} finally {
  finish();
}
console.log('all spans use the conventions\' names');
