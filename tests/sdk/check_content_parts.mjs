// The official `openai` and `@anthropic-ai/sdk` clients send image and document parts to
// accord-mock, which checks their shape (base64 that decodes to what the media type says) and
// answers; a part whose bytes are not its media type gets the mock's 400, which the SDK reports.
// Usage: node check_content_parts.mjs /path/to/accord-mock
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { mockPathArg, startMock, checks, value, schema } from './start_mock.mjs';

const mockPath = mockPathArg('check_content_parts.mjs');

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('pixels')]).toString('base64');
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]).toString('base64');
const pdf = Buffer.from('%PDF-1.7 an invoice').toString('base64');
const text = 'Extract the invoice from the attachments.';

// One reply per check below, in the same order.
const replies = [{ json: value }, { json: value }, { json: value }, { json: value }];

const { child, root } = await startMock(mockPath, replies);
const { check, finish } = checks(child);

const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${root}/v1`, maxRetries: 0 });
const anthropic = new Anthropic({ apiKey: 'sk-test', baseURL: root, maxRetries: 0 });
const format = { type: 'json_schema', json_schema: { name: 'invoice', strict: true, schema } };

try {
  await check('openai chat sends image_url and file parts the mock accepts', async () => {
    const completion = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
            { type: 'file', file: { filename: 'invoice.pdf', file_data: `data:application/pdf;base64,${pdf}` } },
          ],
        },
      ],
      response_format: format,
    });
    assert.deepEqual(JSON.parse(completion.choices[0].message.content), value);
  });

  await check('openai responses sends input_image and input_file the mock accepts', async () => {
    const response = await openai.responses.create({
      model: 'gpt-4o-mini',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text },
            { type: 'input_image', image_url: `data:image/png;base64,${png}`, detail: 'auto' },
            { type: 'input_file', filename: 'invoice.pdf', file_data: `data:application/pdf;base64,${pdf}` },
          ],
        },
      ],
      text: { format: { type: 'json_schema', name: 'invoice', strict: true, schema } },
    });
    assert.deepEqual(JSON.parse(response.output_text), value);
  });

  await check('anthropic sends image and document blocks the mock accepts', async () => {
    const message = await anthropic.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 256,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
          ],
        },
      ],
    });
    assert.deepEqual(JSON.parse(message.content[0].text), value);
  });

  await check('anthropic reports the mock 400 for an image whose bytes are not its type', async () => {
    await assert.rejects(
      anthropic.messages.create({
        model: 'claude-sonnet-4-5',
        max_tokens: 256,
        messages: [
          {
            role: 'user',
            content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: jpeg } }],
          },
        ],
      }),
      (error) => {
        assert.equal(error.status, 400);
        assert.match(error.message, /the media type is image\/png but the bytes are image\/jpeg/);
        return true;
      },
    );
  });
} finally {
  finish();
}
