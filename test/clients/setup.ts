// The clients set's global setup: every real client installed into the user cache (each `ensure…` of ./installs.ts),
// and Copilot CLI's JavaScript unpacked into its shared cache, before any file runs, so the set's files run two at a
// time without two of them installing or unpacking the same client at once.
import { execFileSync } from 'node:child_process';
import * as installs from './installs';

export default function setup(): void {
  for (const [name, ensure] of Object.entries(installs)) if (name.startsWith('ensure')) (ensure as () => string)();
  const env = { ...process.env, COPILOT_CACHE_HOME: installs.COPILOT_CACHE, COPILOT_OFFLINE: 'true', COPILOT_AUTO_UPDATE: 'false' };
  execFileSync(installs.ensureCopilot(), ['--version'], { env, stdio: 'ignore', timeout: 120_000 });
}
