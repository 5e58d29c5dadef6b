// The clients set's global setup: every real client installed into the user cache, and Copilot CLI's JavaScript
// unpacked into its shared cache, before any file runs, so the set's files run two at a time without two of them
// installing or unpacking the same client at once.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import * as installs from './installs';

export default function setup(): void {
  for (const ensure of [installs.ensureClaude, installs.ensureGeminiCore, installs.ensureCodex, installs.ensureGeminiCli, installs.ensureOpencode, installs.ensureQwen, installs.ensureMcpFs, installs.ensureCline, installs.ensureKilo, installs.ensureDroid]) ensure();
  const copilot = installs.ensureCopilot();
  const env = { ...process.env, COPILOT_CACHE_HOME: path.join(installs.COPILOT_DIR, 'copilot-cache'), COPILOT_OFFLINE: 'true', COPILOT_AUTO_UPDATE: 'false' };
  execFileSync(copilot, ['--version'], { env, stdio: 'ignore', timeout: 120_000 });
}
