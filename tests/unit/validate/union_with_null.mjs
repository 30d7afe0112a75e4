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

// The sibling case: whether v's too_small is reported depends on w.
const VW = z.strictObject({ v: z.string().min(3), w: z.number() });

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
  nullableUnionWrongField: [field(z.union([X, z.null()]).nullable()), { u: { a: 5 } }],
  // 3. A failing part below a union with null: its issue alone does not say the whole's.
  siblingFits: [field(z.union([VW, z.null()])), { u: { v: 'x', w: 1 } }],
  siblingWrong: [field(z.union([VW, z.null()])), { u: { v: 'x', w: 's' } }],
  siblingMissing: [field(z.union([VW, z.null()])), { u: { v: 'x' } }],
};
for (const [name, [schema, input]] of Object.entries(cases)) {
  calls = 0;
  const result = schema.safeParse(input);
  const issues = result.success ? [] : result.error.issues.map(({ code, path, message }) => ({ code, path, message }));
  console.log(name, JSON.stringify({ success: result.success, issues, calls }));
  if (!result.success) console.log(z.prettifyError(result.error));
}
