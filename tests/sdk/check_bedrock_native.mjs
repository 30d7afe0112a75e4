// Bedrock's native structured output through the official `@aws-sdk/client-bedrock-runtime`
// (3.1178, which has ConverseCommand's outputConfig): the wire accord lowers for bedrock
// (`accord schema --provider bedrock --json`) goes as outputConfig.textFormat's schema string,
// the SDK's serialiser sends the field as accord's codec does (read back from accord-mock's
// request log), accord-mock takes it and the SDK parses the JSON text reply, whole and streamed;
// a schema that is not JSON text is refused as Bedrock would, a ValidationException.
// Usage: node check_bedrock_native.mjs /path/to/accord-mock /path/to/accord-cli
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { mockPathArg, startMock, checks, value } from './start_mock.mjs';

const mockPath = mockPathArg('check_bedrock_native.mjs');
const cli = process.argv[3];
if (!cli) {
  console.error('usage: node check_bedrock_native.mjs ACCORD_MOCK_PATH ACCORD_CLI_PATH');
  process.exit(2);
}

// Bounds the native path cannot take as keywords (lowered into words), beside plain ones.
const source = {
  type: 'object',
  properties: {
    vendor: { type: 'string', minLength: 2, maxLength: 80 },
    total: { type: 'number', minimum: 0 },
    currency: { type: 'string', enum: ['EUR', 'USD'] },
  },
  required: ['vendor', 'total', 'currency'],
  additionalProperties: false,
};
const dir = await mkdtemp(join(tmpdir(), 'accord-bedrock-native-'));
const file = join(dir, 'invoice.json');
await writeFile(file, JSON.stringify(source));
const { stdout } = await promisify(execFile)(cli, ['schema', file, '--provider', 'bedrock', '--json']);
await rm(dir, { recursive: true });
const wire = JSON.parse(stdout).wire;

const replies = [
  { json: value }, // converse
  { json: value, stream_chunk_chars: 4 }, // converse-stream
];
const { child, root } = await startMock(mockPath, replies);
const { check, finish } = checks(child);

const bedrock = new BedrockRuntimeClient({
  region: 'us-east-1',
  endpoint: root,
  credentials: { accessKeyId: 'AKIDACCORDMOCKTEST', secretAccessKey: 'accord-mock-test-secret-key' },
  requestHandler: new NodeHttpHandler(),
  maxAttempts: 1,
});
const modelId = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const messages = [{ role: 'user', content: [{ text: 'ACME Corp billed 1,250.00 EUR.' }] }];
const textFormat = (schema) => ({
  type: 'json_schema',
  structure: { jsonSchema: { schema, name: 'invoice', description: 'The invoice.' } },
});
const outputConfig = { textFormat: textFormat(JSON.stringify(wire)) };

// The bodies accord-mock received, in order.
async function received() {
  const response = await fetch(`${root}/_accord/requests`);
  return (await response.json()).map((entry) => entry.body);
}

try {
  await check("accord's bedrock wire keeps no keyword Claude's structured outputs refuse", async () => {
    const text = JSON.stringify(wire);
    for (const keyword of ['"minLength"', '"maxLength"', '"minimum"']) {
      assert.ok(!text.includes(keyword), `${keyword} in ${text}`);
    }
    assert.deepEqual(wire.properties.currency.enum, ['EUR', 'USD']);
  });
  await check('converse: outputConfig with the wire as a string, the JSON text parsed', async () => {
    const r = await bedrock.send(new ConverseCommand({ modelId, messages, outputConfig }));
    assert.equal(r.stopReason, 'end_turn');
    assert.deepEqual(JSON.parse(r.output.message.content[0].text), value);
  });
  await check("the SDK serialises outputConfig as accord's codec sends it", async () => {
    const [body] = await received();
    assert.deepEqual(body.outputConfig, outputConfig);
    assert.equal(typeof body.outputConfig.textFormat.structure.jsonSchema.schema, 'string');
    assert.equal(body.toolConfig, undefined);
  });
  await check('converse-stream: the JSON text arrives as text deltas', async () => {
    const response = await bedrock.send(
      new ConverseStreamCommand({ modelId, messages, outputConfig }),
    );
    let text = '';
    let deltas = 0;
    let stopReason;
    for await (const event of response.stream) {
      if (event.contentBlockDelta?.delta?.text) {
        text += event.contentBlockDelta.delta.text;
        deltas += 1;
      }
      if (event.messageStop) stopReason = event.messageStop.stopReason;
    }
    assert.deepEqual(JSON.parse(text), value);
    assert.ok(deltas > 5, `${deltas} deltas`);
    assert.equal(stopReason, 'end_turn');
  });
  await check('a schema that is not JSON text is a ValidationException', async () => {
    const bad = { textFormat: textFormat('{"type": "object"') };
    await assert.rejects(
      bedrock.send(new ConverseCommand({ modelId, messages, outputConfig: bad })),
      (error) => {
        assert.equal(error.name, 'ValidationException');
        assert.equal(error.$metadata.httpStatusCode, 400);
        assert.match(error.message, /jsonSchema\.schema/);
        return true;
      },
    );
  });
} finally {
  finish();
}
console.log('all checks passed');
