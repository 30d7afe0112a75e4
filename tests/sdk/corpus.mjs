// Holds accord's wires for every schema of tests/corpus against the official SDKs' own
// transforms: openai's toStrictJsonSchema (what its strict helpers send) must take an OpenAI wire
// as it is, and @anthropic-ai/sdk's transformJSONSchema must not throw on an Anthropic wire nor
// change it beyond what it always moves into descriptions (pattern, const, default, and the type
// beside an enum or const; ../shared/docs/providers.md §4.2).
//
// It also holds every wire to the documents the input schema accepts: json-schema-faker makes a
// few valid documents per schema (ajv checks each against the input and drops the few it gets
// wrong), `accord schema --documents` lowers them as accord sends them (absent optionals as null,
// maps as entry lists, a non-object root wrapped), and ajv checks each against the wire. The
// generator keeps to the narrowing docs/providers.md states: a schema with no type is sent as
// any scalar, and Anthropic takes recursion 3 levels deep.
// Usage: node corpus.mjs ACCORD_CLI CORPUS_DIR
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { isDeepStrictEqual, promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateSync } from 'json-schema-faker';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);
const { toStrictJsonSchema } = require('openai/lib/transform');
const { transformJSONSchema } = require('@anthropic-ai/sdk/lib/transform-json-schema');

const ajvFor = (Class) => {
  const ajv = new Class({ strict: false });
  addFormats(ajv);
  return ajv;
};
const draft07 = ajvFor(Ajv);
const draft2020 = ajvFor(Ajv2020);
const inputValidator = (schema) =>
  (/draft-0[4-7]/.test(String(schema.$schema ?? '')) ? draft07 : draft2020).compile(schema);

// The documented narrowing, applied to what the generator may make: a schema with no type (a
// typeless property, `true`, a required name `properties` does not declare) is sent as any
// scalar, so an object or array there cannot be sent.
const ANY_SCALAR = { type: ['string', 'number', 'boolean', 'null'] };
const ANNOTATIONS = ['description', 'title', 'default', 'examples'];
const SCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties'];
const SCHEMA_PLACES = ['items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf', 'prefixItems', 'not'];
function scalarsForAny(node) {
  if (Array.isArray(node)) return node.map(scalarsForAny);
  if (node === true) return ANY_SCALAR;
  if (node === null || typeof node !== 'object') return node;
  if (Object.keys(node).every((k) => ANNOTATIONS.includes(k))) return ANY_SCALAR;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_MAPS.includes(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scalarsForAny(v)]));
    } else {
      out[key] = SCHEMA_PLACES.includes(key) ? scalarsForAny(value) : value;
    }
  }
  if (Array.isArray(out.required)) {
    out.properties = { ...(out.properties ?? {}) };
    for (const name of out.required) out.properties[name] ??= ANY_SCALAR;
  }
  return out;
}

// Up to three documents the input schema accepts: no optional property, every one, half.
function documentsFor(schema) {
  const valid = inputValidator(schema);
  const generated = scalarsForAny(schema);
  const out = [];
  for (const [seed, optionalsProbability] of [[1, 0], [2, 1], [3, 0.5]]) {
    try {
      const document = generateSync(generated, {
        seed, optionalsProbability, refDepthMax: 2, maxDepth: 4, validateSchemaVersion: false,
      });
      if (valid(document)) out.push(document);
      else tally['documents the generator got wrong'] += 1;
    } catch {
      tally['documents the generator got wrong'] += 1;
    }
  }
  return out;
}

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
const tally = { schemas: 0, refused: 0, documents: 0, 'documents the generator got wrong': 0 };
for (const provider of Object.keys(checks)) {
  tally[`${provider} throws`] = 0;
  tally[`${provider} rewrites`] = 0;
  tally[`${provider} rejected documents`] = 0;
}
const failures = [];
const jobs = [];
for (const name of fs.readdirSync(corpusDir).filter((f) => f.endsWith('.json')).sort()) {
  const corpus = JSON.parse(fs.readFileSync(path.join(corpusDir, name), 'utf8'));
  for (const { tool, schema } of corpus.schemas) {
    const file = path.join(scratch, `${tally.schemas}.json`);
    const documents = path.join(scratch, `${tally.schemas}.documents.json`);
    tally.schemas += 1;
    fs.writeFileSync(file, JSON.stringify(schema));
    const valid = documentsFor(schema);
    tally.documents += valid.length;
    fs.writeFileSync(documents, JSON.stringify(valid));
    for (const provider of Object.keys(checks)) {
      jobs.push({ label: `${name} ${tool}`, file, documents, originals: valid, provider });
    }
  }
}

async function judge({ label, file, documents, originals, provider }) {
  let wire;
  let lowered;
  try {
    const { stdout } = await run(cli, ['schema', file, '--provider', provider, '--json', '--documents', documents]);
    ({ wire, documents: lowered } = JSON.parse(stdout));
  } catch (error) {
    tally.refused += 1;
    console.log(`refused  ${label} (${provider}): ${String(error.stderr ?? error).trim()}`);
    return;
  }
  const accepts = draft2020.compile(wire);
  lowered.forEach((document, i) => {
    if (accepts(document)) return;
    tally[`${provider} rejected documents`] += 1;
    failures.push(`${label}: the ${provider} wire rejects a valid document as sent: ${draft2020.errorsText(accepts.errors)}\n  document: ${JSON.stringify(originals[i])}\n  as sent:  ${JSON.stringify(document)}\n  wire: ${JSON.stringify(wire)}`);
  });
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
// A generator that stopped working would make this check pass on nothing.
if (tally.documents < 2 * tally.schemas) {
  failures.push(`only ${tally.documents} valid documents for ${tally.schemas} schemas: the generator is not doing its part`);
}
for (const f of failures) console.log(`FAIL ${f}`);
console.log(Object.entries(tally).map(([k, v]) => `${k}: ${v}`).join(', '));
process.exit(failures.length > 0 ? 1 : 0);
