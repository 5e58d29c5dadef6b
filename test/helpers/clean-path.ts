// The suites run whatever is on the caller's PATH: with git-handoff installed (`npm link`, or the README's
// `export PATH="$PWD/bin:$PATH"`) a test that starts "an older installation", or none, would find that one later on
// PATH. Read by the vitest config before any test runs (the workers inherit the environment): each PATH directory
// that holds one of the product's programs is replaced by a copy of it without them (a folder of links to its other
// entries, removed when the run ends), and relative entries are dropped. A test that wants git-handoff on PATH puts
// this checkout's bin/ there itself (test/clients/deps.ts PATH_WITH_BIN).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The names package.json's bin installs: the launcher, the front and its sourced names. */
export const PRODUCT_PROGRAMS = Object.keys(JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')).bin);

const holdsProduct = (dir: string) => PRODUCT_PROGRAMS.some((p) => existsSync(path.join(dir, p)));

/** `PATH` without the product's programs: each directory holding one mirrored (under `under`) without them. */
export function pathWithoutProduct(value: string, under: () => string): string {
  const out: string[] = [];
  for (const dir of value.split(':')) {
    if (!path.isAbsolute(dir) || out.includes(dir)) continue;
    if (!holdsProduct(dir)) {
      out.push(dir);
      continue;
    }
    const copy = path.join(under(), String(out.length));
    mkdirSync(copy);
    for (const name of readdirSync(dir)) if (!PRODUCT_PROGRAMS.includes(name)) symlinkSync(path.join(dir, name), path.join(copy, name));
    out.push(copy);
  }
  return out.join(':');
}

if (process.env.GH_TEST_CLEAN_PATH !== process.env.PATH) {
  let root: string | null = null;
  const under = () => (root ??= mkdtempSync(path.join(tmpdir(), 'gh-test-path-')));
  process.env.PATH = pathWithoutProduct(process.env.PATH ?? '', under);
  // marks this PATH as cleaned (a config read twice in one process, or a run started from inside a run, keeps it)
  process.env.GH_TEST_CLEAN_PATH = process.env.PATH;
  if (root) {
    const made = root;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
}
