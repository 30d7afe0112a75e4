// The oracle of union_with_null_test.cpp: a union of an option and null as Zod 4.6.7 parses it,
// beside the same option made .nullable(). Each case: the verdict, the issues (code, path,
// message), the prettified error, and how often the predicates ran. Usage: node
// union_with_null.mjs from a directory holding node_modules/zod (bench/run_node.sh installs one
// in build/node-anchors).
import { z } from 'zod';

let calls = 0;
const notNull = (v) => { calls += 1; return v !== null; };
const X = z.strictObject({ a: z.string().min(3) });
const field = (schema) => z.strictObject({ u: schema });

// A level refined as nullable_ref_refinements.mjs's `counted`; a leaf refined on its own.
const counted = (schema, message) => schema.refine((v) => { calls += 1; return v.bad !== true; }, message);
const Leaf = counted(z.strictObject({ leaf: z.string(), bad: z.boolean().optional() }), 'bad leaf');
const Nested = counted(z.strictObject({ bad: z.boolean().optional(),
  next: z.union([z.union([z.lazy(() => Nested), Leaf]), z.null()]) }), 'bad level');
// {"next": ... end} `depth` levels; the level at index `bad` (0 the top) is marked.
const chain = (depth, bad, end) => {
  let value = end;
  for (let i = depth - 1; i >= 0; i -= 1) value = i === bad ? { bad: true, next: value } : { next: value };
  return value;
};
// typed<Knot>(): a label and children that are null or knots, refined on the whole knot.
const Knot = z.strictObject({ label: z.string(),
  children: z.array(z.union([z.null(), z.lazy(() => Knot)])) })
  .refine((k) => { calls += 1; return k.label !== 'bad'; }, 'no knot is labelled bad');

const cases = {
  // 1. The union's own refinement runs on null; a .nullable() around it lets null through.
  unionRefineNull: [field(z.union([X, z.null()]).refine(notNull, 'not null')), { u: null }],
  unionNullFirstRefineNull: [field(z.union([z.null(), X]).refine(notNull, 'not null')), { u: null }],
  refineNullable: [field(X.refine(notNull, 'not null').nullable()), { u: null }],
  unionRefineNullable: [field(z.union([X, z.null()]).refine(notNull, 'not null').nullable()), { u: null }],
  // 2. A value no option fits.
  unionNumber: [field(z.union([X, z.null()])), { u: 5 }],
  unionNullFirstWrongField: [field(z.union([z.null(), X])), { u: { a: 5 } }],
  unionMissing: [field(z.union([X, z.null()])), {}],
  nullableWrongField: [field(X.nullable()), { u: { a: 5 } }],
  unionTooShort: [field(z.union([X, z.null()])), { u: { a: 'x' } }],
  unionRefineNumber: [field(z.union([X, z.null()]).refine(notNull, 'not null')), { u: 5 }],
  nullableUnionWrongField: [field(z.union([X, z.null()]).nullable()), { u: { a: 5 } }],
  partBelow: [z.strictObject({ u: z.union([z.strictObject({ v: X }), z.null()]) }), { u: { v: { a: 5 } } }],
  // 3. Refinements at depth: a union inside a union with null; a typed rule through null | T.
  nestedBadLeaf: [Nested, chain(4, -1, { leaf: 'x', bad: true })],
  nestedBadLevel: [Nested, chain(4, 2, { leaf: 'x' })],
  knotBad: [Knot, { label: 'a', children: [null, { label: 'b', children: [{ label: 'bad', children: [] }] }] }],
};
for (const [name, [schema, input]] of Object.entries(cases)) {
  calls = 0;
  const result = schema.safeParse(input);
  const issues = result.success ? [] : result.error.issues.map(({ code, path, message }) => ({ code, path, message }));
  console.log(name, JSON.stringify({ success: result.success, issues, calls }));
  if (!result.success) console.log(z.prettifyError(result.error));
}
