// node:fs for the guard's bundles (scripts/build.mjs aliases `node:fs` here): one require of the builtin per bundle,
// where esbuild keeps each importing module's own (about 8 µs each). `fs`, not `node:fs`: the alias would send it back here.
const fs: typeof import('node:fs') = require('fs');

export const {
  appendFileSync, chmodSync, closeSync, constants, copyFileSync, cpSync, existsSync, fstatSync, linkSync, lstatSync,
  lutimesSync, mkdirSync, mkdtempSync, openSync, read, readFileSync, readSync, readdirSync, readlinkSync,
  realpathSync, renameSync, rmSync, rmdirSync, statSync, statfsSync, unlinkSync, utimesSync, writeFileSync,
  writeSync
} = fs;
