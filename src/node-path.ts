// node:path for dist/guard.cjs, dist/first.cjs and dist/fast.cjs (scripts/build.mjs aliases `node:path` to this
// file there): a plain require, which esbuild leaves as it is. Its default import of a builtin is wrapped in
// __toESM, a copy of the module's every export made once per importing module (18 in the first look: about 0.3 ms
// of every guard run; 51 in the full guard).
// `path`, not `node:path`: the alias would send that back here.
const path: typeof import('node:path') = require('path');
export default path;
