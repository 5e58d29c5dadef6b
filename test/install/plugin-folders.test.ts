// The built plugin and extension carry every bundle the launcher may load, including those loaded on demand.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundles } from '../../src/install/plugin-folders';
import { ROOT } from '../helpers/repo';

describe('plugin folders', () => {
  it('dist/claude-plugin and dist/gemini-extension hold every bundle of dist/, secrets.cjs among them', () => {
    const all = bundles(ROOT).sort();
    expect(all).toEqual(expect.arrayContaining(['cli.cjs', 'fast.cjs', 'guard.cjs', 'load.cjs', 'secrets.cjs']));
    for (const folder of ['claude-plugin', 'gemini-extension']) {
      expect(readdirSync(path.join(ROOT, 'dist', folder, 'dist')).sort(), folder).toEqual(all);
    }
  });
});
