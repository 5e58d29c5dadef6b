// One owner for child processes (issue 71): src/process.ts starts every program (git's through src/git/run.ts, which
// starts it there), so no other module loads node:child_process or a library that starts processes. The check reads
// each source's imports as TypeScript does (import, require, import()), so text that only names the module (a plugin
// written for a client, a pattern of the guard) is not an import.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.join(__dirname, '..', '..', 'src');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

const OWNER = 'process.ts';
const STARTERS = /^(?:node:)?child_process$|^execa$|^simple-git$/;

/** The modules `text` imports that start processes. */
const starterImports = (text: string): string[] =>
  ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName).filter((name) => STARTERS.test(name));

describe('one owner for child processes', () => {
  it('no source but src/process.ts imports node:child_process, execa or simple-git', () => {
    const offenders = sources(SRC).flatMap((file) => {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      return rel === OWNER ? [] : starterImports(readFileSync(file, 'utf8')).map((name) => `src/${rel} imports ${name}`);
    });
    expect(offenders).toEqual([]);
  });

  it('the check sees each way of importing (it can fail), and not a module named inside a string', () => {
    expect(starterImports("import { spawnSync } from 'node:child_process';")).toEqual(['node:child_process']);
    expect(starterImports("import type { ChildProcess } from 'child_process';")).toEqual(['child_process']);
    expect(starterImports("const { spawn } = require('node:child_process') as typeof import('node:child_process');")).toHaveLength(2);
    expect(starterImports("const { execa } = await import('execa');")).toEqual(['execa']);
    expect(starterImports("import { simpleGit } from 'simple-git';")).toEqual(['simple-git']);
    expect(starterImports('const plugin = `import { spawn } from "node:child_process"\n${command}`;')).toEqual([]);
    expect(starterImports("const RUNS = /spawn|child_process/;")).toEqual([]);
  });
});
