// The oracle of refinement_undeclared_keys_test.cpp: what Zod 4.6.7's parse hands a refinement
// when the value holds keys its objects do not declare. accord's object() is z.strictObject
// (unknown keys are an `unrecognized_keys` issue, which does not abort), .passthrough() is
// z.looseObject (they are kept). Each case: the verdict, the issues, what the refinement saw and
// how often it ran. Usage: node refinement_undeclared_keys.mjs from a directory holding
// node_modules/zod (bench/run_node.sh installs one in build/node-anchors).
import { z } from 'zod';

let seen;
let calls;
const spied = (schema, check = () => true, message = 'never') => schema.refine((v) => {
  calls += 1;
  seen = structuredClone(v);
  return check(v);
}, message);
const a = () => z.strictObject({ a: z.number() });
const oneKey = (v) => Object.keys(v).length === 1;
const Node = z.strictObject({ v: z.number(), get kids() { return z.array(Node); } });
const cases = {
  // A refinement on the object itself.
  refinedObject: [spied(a(), oneKey, 'one key'), { a: 1, x: 2 }],
  refinedObjectFails: [spied(a(), (v) => v.a > 5, 'a is over 5'), { a: 1, x: 2 }],
  refinedPassthrough: [spied(z.looseObject({ a: z.number() }), oneKey, 'one key'), { a: 1, x: 2 }],
  // A refinement on an enclosing object.
  nested: [spied(z.strictObject({ inner: a() })), { inner: { a: 1, x: 2 } }],
  passthroughNested: [spied(z.strictObject({ inner: z.looseObject({ a: z.number() }) })),
    { inner: { a: 1, x: 2 } }],
  strictInPassthrough: [spied(z.looseObject({ inner: a() })), { inner: { a: 1, x: 2 }, y: 3 }],
  array: [spied(z.strictObject({ list: z.array(a()) })),
    { list: [{ a: 1, x: 2 }, { a: 2 }, { a: 3, y: 1, z: 2 }] }],
  record: [spied(z.strictObject({ byName: z.record(z.string(), a()) })),
    { byName: { k: { a: 1, x: 2 } } }],
  deep: [spied(z.strictObject({ p: z.strictObject({ q: z.array(z.strictObject({ r: a() })) }) })),
    { p: { q: [{ r: { a: 1, x: 2 } }], w: 1 } }],
  withDefault: [spied(z.strictObject({ inner: z.strictObject({ a: z.number().default(7) }) })),
    { inner: { x: 2 } }],
  // Below a union: the option Zod hands on.
  onlyNonAbortedOption: [spied(z.strictObject({ either: z.union([a(), z.number()]) })),
    { either: { a: 1, x: 2 } }],
  passthroughOptionPasses: [spied(z.strictObject({ either: z.union([a(),
    z.looseObject({ a: z.number() })]) })), { either: { a: 1, x: 2 } }],
  taggedOption: [spied(z.strictObject({ pick: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('a'), a: z.number() }),
    z.strictObject({ kind: z.literal('b') })]) })), { pick: { kind: 'a', a: 1, x: 2 } }],
  optionBesideNull: [spied(z.strictObject({ maybe: z.union([a(), z.null()]) })),
    { maybe: { a: 1, x: 2 } }],
  nullable: [spied(z.strictObject({ maybe: a().nullable() })), { maybe: { a: 1, x: 2 } }],
  refinedUnion: [spied(z.union([a(), z.number()])), { a: 1, x: 2 }],
  nullFirst: [spied(z.strictObject({ maybe: z.union([z.null(), a()]) })),
    { maybe: { a: 1, x: 2 } }],
  // Through a definition and a tuple.
  refRecursive: [spied(Node), { v: 1, kids: [{ v: 2, kids: [], x: 1 }] }],
  tuple: [spied(z.strictObject({ t: z.tuple([z.number(), a()]) })), { t: [1, { a: 1, x: 2 }] }],
  // Only the refined node's own keys count: a sibling's undeclared key leaves `r`'s value alone.
  siblingKeyOtherRefined: [z.strictObject({ s: a(), r: spied(a()) }),
    { s: { a: 1, x: 2 }, r: { a: 2 } }],
  // An aborting issue beside the extra key: the refinement does not run.
  abortingIssueBeside: [spied(a()), { a: 'one', x: 2 }],
};
for (const [name, [schema, input]] of Object.entries(cases)) {
  seen = undefined;
  calls = 0;
  const result = schema.safeParse(input);
  const issues = result.success ? [] : result.error.issues.map(({ code, path, message }) => ({ code, path, message }));
  console.log(name, JSON.stringify({ input, success: result.success, issues, refinementSaw: seen, calls }));
}
// How often each refinement runs: one on each item, one on the list's object.
let itemCalls = 0;
let outerCalls = 0;
const counted = z.strictObject({
  list: z.array(a().refine((v) => { itemCalls += 1; return oneKey(v); }, 'item has one key')),
}).refine((v) => { outerCalls += 1; return v.list.every(oneKey); }, 'every item has one key');
const countedInput = { list: [{ a: 1, x: 2 }, { a: 2 }, { a: 3, y: 1 }] };
const countedResult = counted.safeParse(countedInput);
console.log('calls', JSON.stringify({ input: countedInput, success: countedResult.success,
  issues: countedResult.error.issues.map(({ code, path, message }) => ({ code, path, message })),
  itemCalls, outerCalls }));
// A refinement inside the union's option, under a refined object: it runs once in the option and
// the object's once, neither seeing the key.
const optionSeen = [];
const optionRefinedInside = z.strictObject({
  either: z.union([a().refine((v) => { optionSeen.push(structuredClone(v)); return true; }, 'never'),
    z.number()]),
}).refine((v) => { optionSeen.push(structuredClone(v)); return true; }, 'never');
const optionInput = { either: { a: 1, x: 2 } };
const optionResult = optionRefinedInside.safeParse(optionInput);
console.log('optionRefinedInside', JSON.stringify({ input: optionInput,
  success: optionResult.success,
  issues: optionResult.error.issues.map(({ code, path, message }) => ({ code, path, message })),
  calls: optionSeen.length, seen: optionSeen }));
