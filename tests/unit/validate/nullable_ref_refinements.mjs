// The oracle of nullable_ref_refinements_test.cpp: a definition refined at every level, reached
// through a union with null, as Zod 4.6.7 parses it. Each case: the verdict, the issues and how
// often the predicates ran. Usage: node nullable_ref_refinements.mjs from a directory holding
// node_modules/zod (bench/run_node.sh installs one in build/node-anchors).
import { z } from 'zod';

let calls = 0;
let unionCalls = 0;
// The refinement fails where `bad` is true, and counts its calls.
const counted = (schema) => schema.refine((v) => { calls += 1; return v.bad !== true; }, 'bad level');
const NullLast = counted(z.strictObject({ bad: z.boolean().optional(),
  next: z.union([z.lazy(() => NullLast), z.null()]) }));
const NullFirst = counted(z.strictObject({ bad: z.boolean().optional(),
  next: z.union([z.null(), z.lazy(() => NullFirst)]) }));
const Nullable = counted(z.strictObject({ bad: z.boolean().optional(),
  next: z.lazy(() => Nullable).nullable() }));
const NullableUnion = counted(z.strictObject({ bad: z.boolean().optional(),
  next: z.union([z.lazy(() => NullableUnion), z.null()]).nullable() }));
const plainObject = z.strictObject({ inner: z.union([counted(z.strictObject({ bad: z.boolean().optional() })), z.null()]) });
// The union's own refinement on a non-null value (on null: union_with_null.mjs).
const Leaf = counted(z.strictObject({ bad: z.boolean().optional() }));
const unionRefined = z.strictObject({ inner: z.union([z.lazy(() => Leaf), z.null()])
  .refine((v) => { unionCalls += 1; return false; }, 'union refinement') });

// A union inside a union with null: a level refined as `counted`, a leaf refined on its own.
const countedAs = (schema, message) => schema.refine((v) => { calls += 1; return v.bad !== true; }, message);
const NestedLeaf = countedAs(z.strictObject({ leaf: z.string(), bad: z.boolean().optional() }), 'bad leaf');
const Nested = countedAs(z.strictObject({ bad: z.boolean().optional(),
  next: z.union([z.union([z.lazy(() => Nested), NestedLeaf]), z.null()]) }), 'bad level');
// typed<Knot>(): a label and children that are null or knots, refined on the whole knot.
const Knot = z.strictObject({ label: z.string(),
  children: z.array(z.union([z.null(), z.lazy(() => Knot)])) })
  .refine((k) => { calls += 1; return k.label !== 'bad'; }, 'no knot is labelled bad');

// {"next": ... {"next": end}} `depth` levels; the level at index `bad` (0 the top) is marked.
const chain = (depth, bad, end = null) => {
  let value = end;
  for (let i = depth - 1; i >= 0; i -= 1) value = i === bad ? { bad: true, next: value } : { next: value };
  return value;
};
const cases = {
  nullLastDepth20: [NullLast, chain(20, -1)],
  nullLastBadAt3: [NullLast, chain(20, 3)],
  nullFirstDepth20: [NullFirst, chain(20, -1)],
  nullFirstBadAt3: [NullFirst, chain(20, 3)],
  nullableDepth20: [Nullable, chain(20, -1)],
  nullableBadAt3: [Nullable, chain(20, 3)],
  nullableUnionDepth20: [NullableUnion, chain(20, -1)],
  nullableUnionBadAt3: [NullableUnion, chain(20, 3)],
  plainObjectBad: [plainObject, { inner: { bad: true } }],
  plainObjectNull: [plainObject, { inner: null }],
  unionRefined: [unionRefined, { inner: { bad: true } }],
  nestedBadLeaf: [Nested, chain(4, -1, { leaf: 'x', bad: true })],
  nestedBadLevel: [Nested, chain(4, 2, { leaf: 'x' })],
  knotBad: [Knot, { label: 'a', children: [null, { label: 'b', children: [{ label: 'bad', children: [] }] }] }],
};
for (const [name, [schema, input]] of Object.entries(cases)) {
  calls = 0;
  unionCalls = 0;
  const result = schema.safeParse(input);
  const issues = result.success ? [] : result.error.issues.map(({ code, path, message }) => ({ code, path, message }));
  console.log(name, JSON.stringify({ success: result.success, issues, calls, unionCalls }));
}
