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
  discriminated: [z.strictObject({ pick: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('a'), x: z.number().default(1) }),
    z.strictObject({ kind: z.literal('b'), y: z.string().default('b') })]) }), { pick: { kind: 'b' } }],
  unionInArray: [z.strictObject({ list: z.array(z.union([z.number(), mode()])) }), { list: [1, {}, { mode: 'manual' }] }],
  twoOptionsPass: [z.strictObject({ either: z.union([z.strictObject({ a: z.number().default(1) }),
    z.strictObject({ b: z.number().default(2) })]) }), { either: {} }],
  firstOptionsRefinementFails: [z.strictObject({ either: z.union([
    z.strictObject({ a: z.number().default(1) }).refine(() => false),
    z.strictObject({ b: z.number().default(2) })]) }), { either: {} }],
  unionWithNull: [z.strictObject({ maybe: z.union([mode(), z.null()]) }), { maybe: {} }],
  onlyNonAbortedOption: [z.strictObject({ either: z.union([z.strictObject({ a: z.number().default(1),
    b: z.string().min(3) }), z.number()]) }), { either: { b: 'x' } }],
  taggedOptionFails: [z.strictObject({ pick: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('a'), x: z.number().default(1), s: z.string().min(3) }),
    z.strictObject({ kind: z.literal('b') })]) }), { pick: { kind: 'a', s: 'x' } }],
  unionWithNullFails: [z.strictObject({ maybe: z.union([z.strictObject({ a: z.number().default(1),
    b: z.string().min(3) }), z.null()]) }), { maybe: { b: 'x' } }],
  deep: [z.strictObject({ a: z.strictObject({ b: z.array(z.strictObject({ c: mode() })) }) }), { a: { b: [{ c: {} }] } }],
  wholeDefault: [z.strictObject({ outer: z.strictObject({ inner: z.strictObject({ mode: z.string().default('auto'),
    k: z.number().default(1) }).default({ k: 2 }) }) }), { outer: {} }],
  presentNull: [z.strictObject({ outer: z.strictObject({ m: z.string().nullable().default('x'),
    n: z.string().default('y') }) }), { outer: { m: null } }],
  rootArray: [z.array(z.strictObject({ qty: z.number().default(1) })), [{}]],
};
// An outer union whose rejected first option holds the same inner union as the accepted one.
const inner = z.union([mode(), z.number()]);
cases.rejectedOuterOption = [z.strictObject({ either: z.union([z.strictObject({ inner, kind: z.literal('a') }),
  z.strictObject({ inner, other: z.number().default(5) })]) }), { either: { inner: {} } }];
// A refinement directly on a union: the accepted option's defaults are filled in.
cases.refinedUnion = [z.union([mode(), z.number()]), {}];
// The same when no option passes: the one whose issues do not abort is the union's result.
const failsShort = () => z.strictObject({ a: z.number().default(1), b: z.string().min(3) });
cases.refinedUnionFails = [z.union([failsShort(), z.number()]), { b: 'x' }];
cases.refinedUnionWithNullFails = [z.union([failsShort(), z.null()]), { b: 'x' }];
// A record of unions, its keys out of order; then more than 16 keys, in reverse order.
const recordOfUnions = z.strictObject({ byName: z.record(z.string(), z.union([mode(), z.number()])) });
cases.recordOfUnions = [recordOfUnions, { byName: { c: {}, a: 1, b: {} } }];
const manyKeys = {};
for (let i = 19; i >= 0; i -= 1) manyKeys[`k${String(i).padStart(2, '0')}`] = i % 2 === 0 ? {} : i;
cases.recordOfUnionsManyKeys = [recordOfUnions, { byName: manyKeys }];
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
// A recursive chain through a union, 40 levels, refined at every level: how often the predicate runs.
let calls = 0;
const Chain = z.strictObject({ mode: z.string().default('a'), next: z.union([z.lazy(() => Chain), z.number()]).optional() })
  .refine(() => { calls += 1; return true; }, 'never');
let chain = 1;
for (let i = 0; i < 40; i += 1) chain = { next: chain };
console.log('recursiveCalls', JSON.stringify({ success: Chain.safeParse(chain).success, calls }));
// The same chain ending in an object: the value each level's refinement saw, outermost first.
const levels = [];
const SeenChain = z.strictObject({ mode: z.string().default('a'), next: z.union([z.lazy(() => SeenChain), z.number()]).optional() })
  .refine((v) => { levels.push(structuredClone(v)); return true; }, 'never');
const three = { next: { next: { next: {} } } };
console.log('recursiveValues', JSON.stringify({ success: SeenChain.safeParse(three).success, levels: levels.reverse() }));
