// The oracle of refinement_defaults_test.cpp: what Zod 4.6.7's parse hands an outer refinement
// when defaults are declared below it. Each case: the verdict, the issues and the value the
// refinement saw. Usage: node refinement_defaults.mjs from a directory holding node_modules/zod
// (bench/run_node.sh installs one in build/node-anchors).
import { z } from 'zod';

const mode = () => z.strictObject({ mode: z.string().default('auto') });
let seen;
const spied = (schema) => schema.refine((v) => { seen = structuredClone(v); return true; }, 'never');
const Settings = mode();
const cases = {
  nested: [z.strictObject({ inner: mode() }), { inner: {} }],
  array: [z.strictObject({ list: z.array(mode()) }), { list: [{}, { mode: 'manual' }] }],
  record: [z.strictObject({ byName: z.record(z.string(), mode()) }), { byName: { a: {} } }],
  tuple: [z.strictObject({ pair: z.tuple([mode(), z.number()]) }), { pair: [{}, 1] }],
  ref: [z.strictObject({ settings: z.lazy(() => Settings) }), { settings: {} }],
  nullable: [z.strictObject({ maybe: mode().nullable() }), { maybe: {} }],
  optional: [z.strictObject({ maybe: mode().optional() }), { maybe: {} }],
  unionFirst: [z.strictObject({ either: z.union([mode(), z.number()]) }), { either: {} }],
  unionSecond: [z.strictObject({ either: z.union([z.strictObject({ n: z.number() }), mode()]) }), { either: {} }],
  unionBoth: [z.strictObject({ either: z.union([z.strictObject({ a: z.string().default('x') }),
    z.strictObject({ b: z.string().default('y') })]) }), { either: {} }],
  discriminated: [z.strictObject({ event: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('a'), mode: z.string().default('auto') }),
    z.strictObject({ type: z.literal('b') })]) }), { event: { type: 'a' } }],
  deep: [z.strictObject({ a: z.strictObject({ b: z.array(z.strictObject({ c: mode() })) }) }), { a: { b: [{ c: {} }] } }],
  wholeDefault: [z.strictObject({ inner: z.strictObject({ mode: z.string().default('auto'), k: z.number().default(1) })
    .default({ k: 2 }) }), {}],
  presentNull: [z.strictObject({ inner: z.strictObject({ m: z.string().nullable().default('x') }) }), { inner: { m: null } }],
};
for (const [name, [schema, input]] of Object.entries(cases)) {
  seen = undefined;
  const result = spied(schema).safeParse(input);
  const issues = result.success ? [] : result.error.issues.map(({ code, path, message }) => ({ code, path, message }));
  console.log(name, JSON.stringify({ input, success: result.success, issues, refinementSaw: seen }));
}
// A refinement that asks for the nested default: its verdict on the default and on another value.
const asksForDefault = z.strictObject({ inner: mode() })
  .refine((v) => v.inner.mode === 'auto', 'the nested default is not filled in');
for (const input of [{ inner: {} }, { inner: { mode: 'manual' } }]) {
  const result = asksForDefault.safeParse(input);
  const issues = result.success ? [] : result.error.issues.map(({ code, path, message }) => ({ code, path, message }));
  console.log('asksForDefault', JSON.stringify({ input, success: result.success, issues }));
}
