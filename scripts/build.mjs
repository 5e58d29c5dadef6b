// Builds the bundles (dist/cli.cjs, the CLI; dist/fast.cjs, the full guard and the git hooks; dist/guard.cjs, the
// guard's first file, and dist/first.cjs, its first look; dist/load.cjs, the launcher's code-cache loader; the rest
// loaded by one command each), then the files generated from the code: the sh front's lists, the hook stub, the man page.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
const common = { bundle: true, platform: 'node', target: 'node20', legalComments: 'none', logLevel: 'warning' };
// cli.cjs and fast.cjs first: their hashes name their V8 code caches (src/load.ts), bundled into the loaders
const hashOf = (f) => createHash('sha256').update(readFileSync(f)).digest('hex').slice(0, 16);
// the guard's bundles take node:path and node:fs with one plain require each (src/node-path.ts, src/node-fs.ts)
const plainBuiltins = { alias: { 'node:path': './src/node-path.ts', 'node:fs': './src/node-fs.ts' } };
// dist/ holds only what this build writes: a bundle an earlier build made and this one no longer does is not shipped
rmSync('dist', { recursive: true, force: true });
await Promise.all([
  // minified like the other bundles: the package stays under 400 kB (test/cli/package.test.ts)
  build({ ...common, format: 'cjs', entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.cjs', minify: true }),
  build({ ...common, ...plainBuiltins, format: 'cjs', entryPoints: ['src/fast.ts'], outfile: 'dist/fast.cjs', minify: true }),
  build({ ...common, format: 'esm', entryPoints: ['src/config-keys.ts'], outfile: 'dist/config-keys.mjs' }),
  // the environment variables the man page lists (scripts/man.mjs)
  build({ ...common, format: 'esm', entryPoints: ['src/environment.ts'], outfile: 'dist/environment.mjs' }),
  // the secret scanner (secretlint): its own file, required only by the paths that scan (src/handoff/secrets/secrets.ts)
  build({
    ...common,
    format: 'cjs',
    entryPoints: ['src/handoff/secrets/secrets-engine.ts'],
    outfile: 'dist/secrets.cjs',
    minify: true,
    alias: { '@secretlint/profiler': './src/handoff/secrets/secretlint-stubs.ts', debug: './src/handoff/secrets/secretlint-stubs.ts' },
  }),
]);
// `git handoff web` alone loads dist/web.cjs: its server, with the page for the browser inside it (its script, with
// preact, htm and jsdiff bundled, and its style), so nothing is ever loaded from the network and every copy of the
// bundles (the plugin's, the extension's) has the page
{
  const page = await build({ bundle: true, platform: 'browser', format: 'iife', target: 'es2020', legalComments: 'none', logLevel: 'warning', entryPoints: ['src/web/page/app.ts'], write: false, minify: true, charset: 'ascii' });
  const css = readFileSync('src/web/page/app.css', 'utf8');
  await build({ ...common, format: 'cjs', entryPoints: ['src/web/server.ts'], outfile: 'dist/web.cjs', minify: true, define: { WEB_PAGE: JSON.stringify({ js: page.outputFiles[0].text, css }) } });
}
// `git handoff mcp` and an install naming an MCP client alone load dist/mcp.cjs: the MCP server with the SDK and zod, and jsonc-parser
// (the SDK's ajv validator left out: src/mcp/no-validator.ts says why; jsonc-parser's ESM build: its UMD one requires at run time)
const noValidator = { name: 'no-validator', setup: (b) => b.onResolve({ filter: /validation\/ajv-provider\.js$/ }, () => ({ path: new URL('../src/mcp/no-validator.ts', import.meta.url).pathname })) };
await build({ ...common, format: 'cjs', entryPoints: ['src/mcp/bundle.ts'], outfile: 'dist/mcp.cjs', minify: true, plugins: [noValidator], mainFields: ['module', 'main'] });
// secrets.cjs too: write and import load the scanner through its own cache (src/handoff/secrets/secrets.ts)
const hashes = { 'cli.cjs': hashOf('dist/cli.cjs'), 'fast.cjs': hashOf('dist/fast.cjs'), 'secrets.cjs': hashOf('dist/secrets.cjs') };
// the guard's first look: fast.cjs stays a separate file, loaded (through its cache) only when a rule may apply
await build({ ...common, ...plainBuiltins, format: 'cjs', entryPoints: ['src/guard/first.ts'], outfile: 'dist/first.cjs', minify: true });
const define = { BUNDLE_HASHES: JSON.stringify({ ...hashes, 'first.cjs': hashOf('dist/first.cjs') }) };
await Promise.all([
  // the file the guard starts with: reads stdin, loads first.cjs through its code cache
  build({ ...common, ...plainBuiltins, format: 'cjs', entryPoints: ['src/fast-guard.ts'], outfile: 'dist/guard.cjs', minify: true, define }),
  // the launcher's loader for cli.cjs and fast.cjs
  build({ ...common, format: 'cjs', entryPoints: ['src/load.ts'], outfile: 'dist/load.cjs', minify: true, define }),
]);
/** The exports of a TypeScript module, built apart for this script (a temporary file in dist/). */
async function fromTs(entry) {
  const out = `dist/.${path.basename(entry, '.ts')}.cjs`;
  await build({ ...common, format: 'cjs', entryPoints: [entry], outfile: out });
  try {
    return createRequire(import.meta.url)(`../${out}`);
  } finally {
    rmSync(out);
  }
}
/** Rewrites `file` as `change` makes it, when that changes it. */
function regenerate(file, change) {
  const text = readFileSync(file, 'utf8');
  const next = change(text);
  if (next !== text) writeFileSync(file, next);
}
// the sh front's word lists, generated from the allowlist (scripts/front-words.mjs), the paths and the lease it reads
// (from the modules node uses for them) and each client's facts it reads (src/clients/front.ts)
{
  const allow = await fromTs('src/guard/allow.ts');
  const { FRONT_CONSTANTS, FRONT_FUNCTIONS, FILE_FUNCTIONS } = await fromTs('src/guard/front-constants.ts');
  const { frontClients } = await fromTs('src/clients/front.ts');
  const { fileBlock, frontBlock, withBlock } = await import('./front-words.mjs');
  regenerate('bin/git-handoff-guard', (front) => withBlock(front, frontBlock(allow, FRONT_CONSTANTS, frontClients(), FRONT_FUNCTIONS), fileBlock(FILE_FUNCTIONS)));
}
// the hook stub's lines from TypeScript (the session variables, the trailer's key): src/hooks/stub-lines.ts
regenerate('git-hooks/stub.sh', (await fromTs('src/hooks/stub-lines.ts')).withStubLines);
await import('./man.mjs');
// the Claude Code plugin and the Gemini CLI extension (dist/claude-plugin, dist/gemini-extension), from the bundles above
(await fromTs('src/install/plugin-folders.ts')).writeFolders(process.cwd());
