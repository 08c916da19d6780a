// Rewrites a results file so that its second matrix parameter has a value
// far longer than a chart is wide (a filter expression, say), everywhere
// the value appears: the matrix, each cell's params and id, each comparison.
//
//   node long-values.mjs IN.json OUT.json
import { readFileSync, writeFileSync } from "node:fs";

const [input, output] = process.argv.slice(2);
const r = JSON.parse(readFileSync(input, "utf8"));
const param = Object.keys(r.matrix).find((k) => k !== "size");
const long = (v) => `${v} and then [.[] | select(.x > 5 and .y != null)] | map(.name) | unique | length`;
r.matrix[param] = r.matrix[param].map(long);
for (const c of [...r.cells, ...r.comparisons]) {
  if (param in c.params) c.params[param] = long(c.params[param]);
}
for (const c of r.cells) {
  const [op, imp] = c.id.split("/");
  c.id = `${op}/${imp}/` + Object.entries(c.params).map(([k, v]) => `${k}=${v}`).join(",");
}
writeFileSync(output, JSON.stringify(r));
