// node:path for the guard's bundles (scripts/build.mjs aliases `node:path` here): a plain require, where esbuild wraps
// a builtin's default import in __toESM, a copy of its exports per importing module. `path`: the alias would send `node:path` back here.
const path: typeof import('node:path') = require('path');
export default path;
