// The README's table of which protections hold in each client is the one the client records yield, word for word.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { protectionMarkdown, protectionRows } from '../../src/clients/protections';
import { ROOT } from '../helpers/repo';

describe('README: protections per client', () => {
  it('the table between its markers is what protectionRows yields', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const m = /<!-- protections:start -->\n([\s\S]*?)\n<!-- protections:end -->/.exec(readme);
    expect(m, 'markers').not.toBeNull();
    expect(m![1]).toBe(protectionMarkdown(protectionRows()));
    // every MCP-only client's row says the guard does not run there
    expect(m![1]).toMatch(/^\| zed \| no: /m);
  });
});
