// The package's TypeScript types (index.d.ts) say what the core returns: the literal union of the
// cost parts' keys is exactly `schema().cost_parts` (the core's kCostParts), in order, and every
// key of schema() and of its rows is declared. A cost part or a schema column added to the core
// without its type fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { PACKAGE_DIR, tc } from './support.mjs';

const types = readFileSync(join(PACKAGE_DIR, 'index.d.ts'), 'utf8');

// The members of a block of the declarations that opens with `opening` ("export interface Schema {"):
// the names before ':' at the block's first level of nesting.
function members(opening) {
  const start = types.indexOf(opening);
  assert.ok(start >= 0, `index.d.ts declares ${opening}`);
  const names = [];
  let depth = 0;
  for (const line of types.slice(start + opening.length).split('\n')) {
    if (depth === 0) {
      const m = /^\s*(\w+)\??:/.exec(line);
      if (m) names.push(m[1]);
      if (/^\s*}/.test(line)) break;
    }
    depth += (line.match(/[{<]/g) || []).length - (line.match(/[}>]/g) || []).length;
    if (depth < 0) break;
  }
  return names;
}

test('CostPartKey is the schema\'s cost parts, in order', () => {
  const m = /export type CostPartKey =([^;]+);/.exec(types);
  assert.ok(m, 'index.d.ts declares CostPartKey');
  const declared = [...m[1].matchAll(/'([^']+)'/g)].map((x) => x[1]);
  assert.deepEqual(declared, tc.schema().cost_parts.map((p) => p.key));
  assert.match(types, /breakdown_per_run_usd: Record<CostPartKey, number>;/);
});

test('Schema declares every key the core returns', () => {
  const schema = tc.schema();
  assert.deepEqual(members('export interface Schema {').sort(), Object.keys(schema).sort());
  assert.deepEqual(members('  fields: Array<{').sort(), Object.keys(schema.fields[0]).sort());
  assert.deepEqual(members('  cost_parts: Array<{').sort(), Object.keys(schema.cost_parts[0]).sort());
});
