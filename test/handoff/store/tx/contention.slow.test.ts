// Contention (issue 8): the bench script's run, shortened; the one-minute run is `node bench/contention.mjs`.
import { execa } from 'execa';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../helpers/repo';

describe('contention', () => {
  it('16 writers of 4 sessions on 8 topics: every accepted write is in history, every refusal is exit 3 or 4 with a message', async () => {
    const r = await execa(process.execPath, [path.join(ROOT, 'bench', 'contention.mjs'), '--seconds', '12', '--json'], { reject: false, timeout: 90_000 });
    expect(r.exitCode, String(r.stderr) + String(r.stdout)).toBe(0);
    const s = JSON.parse(r.stdout);
    console.log(`contention: ${s.writes} writes, ${s.accepted} accepted (${s.takeovers} takeovers), ${s.owned} exit 3, ${s.concurrent} exit 4, ${s.other} other`);
    expect(s.problems).toEqual([]);
    expect(s.other).toBe(0);
    expect(s.accepted).toBeGreaterThanOrEqual(8);
    expect(s.owned).toBeGreaterThan(0);
    expect(s.writes).toBe(s.accepted + s.owned + s.concurrent);
  });
});
