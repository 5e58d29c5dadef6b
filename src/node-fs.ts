// node:fs for dist/guard.cjs, dist/first.cjs and dist/fast.cjs (scripts/build.mjs aliases `node:fs` to this file
// there, as node:path to src/node-path.ts): one require of the builtin for the whole bundle. esbuild keeps each
// importing module's own `require("node:fs")`, and a require through the module system costs about 8 µs: 15 of them
// in the first look, 49 in the full guard. `fs`, not `node:fs`: the alias would send that back here.
const fs: typeof import('node:fs') = require('fs');

export const {
  appendFileSync,
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  cpSync,
  existsSync,
  fstatSync,
  linkSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  read,
  readFileSync,
  readSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  statfsSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} = fs;
