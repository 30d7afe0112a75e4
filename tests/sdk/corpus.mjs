// Holds accord's wires for every schema of tests/corpus against the official SDKs' own
// transforms: openai's toStrictJsonSchema (what its strict helpers send) must take an OpenAI wire
// as it is, and @anthropic-ai/sdk's transformJSONSchema must not throw on an Anthropic wire nor
// change it beyond what it always moves into descriptions (pattern, const, default, and the type
// beside an enum or const; ../shared/docs/providers.md §4.2).
// Usage: node corpus.mjs ACCORD_CLI CORPUS_DIR
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { isDeepStrictEqual, promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { toStrictJsonSchema } = require('openai/lib/transform');
const { transformJSONSchema } = require('@anthropic-ai/sdk/lib/transform-json-schema');

const [cli, corpusDir] = process.argv.slice(2);
if (!cli || !corpusDir) {
  console.error('usage: node corpus.mjs ACCORD_CLI CORPUS_DIR');
  process.exit(2);
}

// What the Anthropic SDK changes on every schema, taken out of both sides before comparing.
function anthropicShape(node) {
  if (Array.isArray(node)) return node.map(anthropicShape);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (['description', 'title', 'pattern', 'const', 'default'].includes(key)) continue;
    if (key === 'type' && ('enum' in node || 'const' in node)) continue;
    out[key] = key === 'enum' ? value : anthropicShape(value);
  }
  if (out.type === 'object' && !('properties' in out)) out.properties = {};
  return out;
}

const checks = {
  'openai-chat': (wire) => {
    const strict = toStrictJsonSchema(structuredClone(wire));
    return isDeepStrictEqual(strict, wire) ? null : strict;
  },
  anthropic: (wire) => {
    const sent = transformJSONSchema(structuredClone(wire));
    return isDeepStrictEqual(anthropicShape(sent), anthropicShape(wire)) ? null : sent;
  },
};

// One `accord schema --json` run per schema and provider, two at a time (CI has two cores).
const run = promisify(execFile);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-corpus-'));
const tally = { schemas: 0, refused: 0 };
for (const provider of Object.keys(checks)) {
  tally[`${provider} throws`] = 0;
  tally[`${provider} rewrites`] = 0;
}
const failures = [];
const jobs = [];
for (const name of fs.readdirSync(corpusDir).filter((f) => f.endsWith('.json')).sort()) {
  const corpus = JSON.parse(fs.readFileSync(path.join(corpusDir, name), 'utf8'));
  for (const { tool, schema } of corpus.schemas) {
    const file = path.join(scratch, `${tally.schemas}.json`);
    tally.schemas += 1;
    fs.writeFileSync(file, JSON.stringify(schema));
    for (const provider of Object.keys(checks)) jobs.push({ label: `${name} ${tool}`, file, provider });
  }
}

async function judge({ label, file, provider }) {
  let wire;
  try {
    const { stdout } = await run(cli, ['schema', file, '--provider', provider, '--json']);
    wire = JSON.parse(stdout).wire;
  } catch (error) {
    tally.refused += 1;
    console.log(`refused  ${label} (${provider}): ${String(error.stderr ?? error).trim()}`);
    return;
  }
  try {
    const changed = checks[provider](wire);
    if (changed) {
      tally[`${provider} rewrites`] += 1;
      failures.push(`${label}: the ${provider} SDK rewrites the wire\n  wire: ${JSON.stringify(wire)}\n  sdk:  ${JSON.stringify(changed)}`);
    }
  } catch (error) {
    tally[`${provider} throws`] += 1;
    failures.push(`${label}: the ${provider} SDK throws on the wire: ${error.message}\n  wire: ${JSON.stringify(wire)}`);
  }
}

try {
  const worker = async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) await judge(job);
  };
  await Promise.all([worker(), worker()]);
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
for (const f of failures) console.log(`FAIL ${f}`);
console.log(Object.entries(tally).map(([k, v]) => `${k}: ${v}`).join(', '));
process.exit(failures.length > 0 ? 1 : 0);
