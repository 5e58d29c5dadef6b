// Writes the secret-scan corpus (fixtures/secrets/): 200 realistic handoff bodies with no secret but many
// near-misses, and planted bodies with fake secrets of every rule of secretlint's recommended preset.
// Deterministic (seeded): `node scripts/gen-secret-corpus.mjs` rewrites the same files. Every token is random, not real.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const OUT = path.resolve(import.meta.dirname, '..', 'fixtures', 'secrets');
let seed = 0x5eed1234;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const pick = (a) => a[Math.floor(rnd() * a.length)];
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const chars = (set, n) => Array.from({ length: n }, () => set[Math.floor(rnd() * set.length)]).join('');
const HEX = '0123456789abcdef';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const B64 = ALNUM + '+/';
const uuid = () => `${chars(HEX, 8)}-${chars(HEX, 4)}-4${chars(HEX, 3)}-${pick('89ab')}${chars(HEX, 3)}-${chars(HEX, 12)}`;
const oid = () => chars(HEX, 40);

// ---- near-misses a handoff body really carries ----
const FILES = ['src/auth/session.ts', 'src/api/routes/users.ts', 'lib/db/migrate.py', 'cmd/server/main.go', 'internal/cache/lru.go', 'app/models/invoice.rb', 'packages/ui/src/Button.tsx', 'test/e2e/login.spec.ts', 'docs/adr/0007-queue.md', 'infra/terraform/main.tf', '.github/workflows/ci.yml', 'Cargo.toml', 'pyproject.toml', 'src/lib.rs', 'config/settings.yaml'];
const VERBS = ['Refactored', 'Fixed', 'Added tests for', 'Moved', 'Deleted dead code in', 'Renamed helpers in', 'Split', 'Documented', 'Profiled', 'Reverted my change to'];
const NEXT = ['wire the retry into the worker', 'run the full e2e suite', 'ask the owner about the schema change', 'bump the lockfile and re-run CI', 'check the flaky test on macOS', 'write the migration down-step', 'update the changelog', 'remove the feature flag after release'];
const near = [
  () => `Session ${uuid()} left off at commit ${oid()}.`,
  () => `Base image pinned: \`ghcr.io/acme/api@sha256:${chars(HEX, 64)}\``,
  () => `The artifact digest is sha256:${chars(HEX, 64)} (matches the release notes).`,
  () => `Screenshot of the broken layout: ![layout](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${chars(B64, int(200, 600))}=)`,
  () => `package-lock says "integrity": "sha512-${chars(B64, 86)}=="`,
  () => `The AWS docs' example key is AKIAIOSFODNN7EXAMPLE with secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY; our config reads them from the environment.`,
  () => `Local DB: postgres://localhost:5432/app_dev (no password, trust auth in docker-compose).`,
  () => `Connection string template: \`postgres://\${DB_USER}:\${DB_PASSWORD}@\${DB_HOST}/app\``,
  () => `The token is read from \`GITHUB_TOKEN\`; in CI it is \`\${{ secrets.GITHUB_TOKEN }}\`.`,
  () => `Set OPENAI_API_KEY=<your key> in .env.local (never commit it); the code calls \`process.env.OPENAI_API_KEY\`.`,
  () => `Stripe test mode only; keys look like sk_test_… and live in 1Password, not here.`,
  () => `git log --oneline ${oid().slice(0, 7)}..${oid().slice(0, 7)} shows the three commits I mean.`,
  () => `Request id ${uuid()} failed with 502 at 2026-03-${String(int(1, 28)).padStart(2, '0')}T${String(int(0, 23)).padStart(2, '0')}:14:07Z.`,
  () => `JWT header for reference: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 (the payload is in the test fixture).`,
  () => `Color tokens changed: #${chars(HEX, 6)} → #${chars(HEX, 6)}.`,
  () => `IPv6 of the staging box: 2001:db8:${chars(HEX, 4)}::${chars(HEX, 4)} (documentation range).`,
  () => `Cache key is \`v2-deps-${chars(HEX, 32)}\`.`,
  () => `Example from the README: \`curl https://user:pass@example.com/api\` (placeholder, not ours).`,
  () => `SSH fingerprint SHA256:${chars(B64, 43)} — matches the one in the runbook.`,
  () => `The public key is fine to share: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${chars(B64, 43)} dev@laptop`,
  () => `Ran \`npm test\`: 412 passed, 3 skipped in 48.2 s.`,
  () => `Version bumped to ${int(1, 4)}.${int(0, 20)}.${int(0, 9)}; tag v${int(1, 4)}.${int(0, 20)}.0 not pushed yet.`,
  () => `Build id ${chars(HEX, 12)}-${int(1000, 9999)}, pipeline #${int(10000, 99999)}.`,
  () => `Redis at redis://127.0.0.1:6379/0 for tests; staging uses the URL from Vault.`,
  () => `The webhook URL is configured in the Slack app settings (hooks.slack.com/services/…), not in the repo.`,
  () => `-----BEGIN PUBLIC KEY----- in fixtures/jwks.pem is the public half only.`,
  () => `An example private key header in docs: \`-----BEGIN RSA PRIVATE KEY-----\` (the docs show only the header).`,
  () => `Hash of the seed file: ${chars(HEX, 64)}`,
  () => `Base64 of the config blob: ${chars(B64, int(60, 120))}==`,
  () => `Error: ENOENT: no such file or directory, open '/home/dev/project/${pick(FILES)}'`,
  () => `Token format per the vendor docs: \`ghp_\` followed by 36 characters; ours is in the keychain.`,
  () => `Vault path secret/data/app/${pick(['db', 'api', 'smtp'])} holds it; ask ops for access.`,
];

function cleanBody(i) {
  const topic = pick(['auth', 'billing', 'search', 'onboarding', 'caching', 'migrations', 'ci', 'logging', 'rate-limits', 'exports']);
  const lines = [`# ${topic} handoff ${i}`, '', '## Goal', `${pick(['Make', 'Finish', 'Stabilise', 'Speed up'])} the ${topic} ${pick(['flow', 'service', 'pipeline', 'module'])} so ${pick(['the release can ship', 'the flaky test stops', 'p95 drops under 200 ms', 'the new API is used everywhere'])}.`, '', '## Done'];
  for (let k = 0; k < int(2, 5); k++) lines.push(`- ${pick(VERBS)} \`${pick(FILES)}\`${rnd() < 0.5 ? ` (${pick(near)()})` : ''}`);
  lines.push('', '## Notes');
  for (let k = 0; k < int(2, 5); k++) lines.push(pick(near)());
  if (rnd() < 0.4) lines.push('', '```', `$ ${pick(['npm test -- --run', 'go test ./...', 'pytest -q', 'cargo test'])}`, `${pick(['ok', 'PASS', 'FAIL'])}  ${pick(FILES)}  ${int(1, 900)}ms`, '```');
  lines.push('', '## Next', `- ${pick(NEXT)}`, `- ${pick(NEXT)}`, '');
  return lines.join('\n');
}

// ---- planted fake secrets, one generator per rule (shapes from each rule's pattern; random values) ----
const pem = (label) => `-----BEGIN ${label}PRIVATE KEY-----\nMII${chars(B64, 61)}\n${Array.from({ length: 3 }, () => chars(B64, 64)).join('\n')}\n${chars(B64, 20)}=\n-----END ${label}PRIVATE KEY-----`;
const b64url = (s) => Buffer.from(s).toString('base64');
function opsToken() {
  let json = `{"signInAddress":"my.1password.com","userAuth":{"method":"SRPg-4096","alg":"PBES2g-HS256","iterations":650000,"salt":"${chars(ALNUM, 22)}"},"email":"${chars('abcdefghij', 8)}@1passwordserviceaccounts.com","secretKey":"A3-${chars(UPNUM, 6)}","deviceUuid":"${chars(ALNUM, 26)}"}`;
  // a length of 3k+1 makes the base64 end in fQ== (the lone closing brace), as real tokens do
  while (json.length % 3 !== 1) json = json.slice(0, -1) + ' }';
  return `ops_${b64url(json)}`;
}
export const PLANTED = {
  aws: [() => `AWS_SECRET_ACCESS_KEY=${chars(ALNUM + '/+', 40)}`, () => `aws_secret_access_key = ${chars(ALNUM + '/+', 40)}`],
  gcp: [() => JSON.stringify({ type: 'service_account', project_id: `proj-${chars(HEX, 6)}`, private_key_id: chars(HEX, 40), private_key: pem('') + '\n', client_email: `ci@proj-${chars(HEX, 6)}.iam.gserviceaccount.com` }, null, 2)],
  privatekey: [() => pem('RSA '), () => pem('')],
  npm: [() => `//registry.npmjs.org/:_authToken=npm_${chars(ALNUM, 36)}`, () => `NPM_TOKEN=npm_${chars(ALNUM, 36)}`],
  basicauth: [() => `curl https://deploybot:${chars(ALNUM, 18)}@ci.acme-internal.io/api/builds`, () => `remote = https://jenkins:${chars(ALNUM, 22)}@build.corp-tools.net/job/x`],
  slack: [() => `SLACK_BOT_TOKEN=xoxb-${int(1e11, 9e11)}-${int(1e12, 9e12)}-${chars(ALNUM, 24)}`, () => `https://hooks.slack.com/services/T${chars(UPNUM, 10)}/B${chars(UPNUM, 10)}/${chars(ALNUM, 24)}`],
  sendgrid: [() => `SENDGRID_API_KEY=SG.${chars(ALNUM, 22)}.${chars(ALNUM, 43)}`, () => `key SG.${chars(ALNUM, 22)}.${chars(ALNUM, 43)} from the dashboard`],
  shopify: [() => `shpat_${chars(HEX, 32)}`, () => `SHOPIFY_TOKEN=shpss_${chars(HEX, 32)}`],
  github: [() => `GH_TOKEN=ghp_${chars(ALNUM, 36)}`, () => `github_pat_${chars(ALNUM, 22)}_${chars(ALNUM, 59)}`],
  gitlab: [() => `glpat-${chars(ALNUM, 20)}`, () => `CI_TOKEN=glpat-${chars(ALNUM, 26)}`],
  grafana: [() => `glc_${chars(ALNUM, 48)}`, () => `glsa_${chars(ALNUM, 32)}_${chars(HEX, 8)}`],
  openai: [() => `OPENAI_API_KEY=sk-${chars(ALNUM, 20)}T3BlbkFJ${chars(ALNUM, 20)}`, () => `sk-proj-${chars(ALNUM, 58)}T3BlbkFJ${chars(ALNUM, 58)}`],
  anthropic: [() => `ANTHROPIC_API_KEY=sk-ant-api03-${chars(ALNUM, 93)}AA`, () => `x-api-key: sk-ant-api03-${chars(ALNUM, 93)}AA`],
  groq: [() => `GROQ_API_KEY=gsk_${chars(ALNUM, 52)}`, () => `gsk_${chars(ALNUM, 52)}`],
  huggingface: [() => `HF_TOKEN=hf_${chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 34)}`, () => `hf_${chars('abcdefghijklmnopqrstuvwxyzABCDEF', 34)}`],
  linear: [() => `LINEAR_API_KEY=lin_api_${chars(ALNUM, 40)}`, () => `lin_api_${chars(ALNUM, 40)}`],
  notion: [() => `NOTION_TOKEN=ntn_${chars('0123456789', 11)}${chars(ALNUM, 35)}`, () => `ntn_${chars('0123456789', 11)}${chars(ALNUM, 35)}`],
  '1password': [() => `OP_SERVICE_ACCOUNT_TOKEN=${opsToken()}`, () => opsToken()],
  'database-connection-string': [() => `DATABASE_URL=postgres://app:${chars(ALNUM, 16)}@db.prod-internal.io:5432/app`, () => `mongodb+srv://svc:${chars(ALNUM, 18)}@cluster0.ab12c.mongodb.net/orders`, () => `jdbc:mysql://reporter:${chars(ALNUM, 14)}@mysql.corp-db.net:3306/reports`],
  'hashicorp-vault': [() => `VAULT_TOKEN=hvs.${chars(ALNUM, 95)}`, () => `hvs.${chars(ALNUM + '_-', 100)}`],
  vercel: [() => `VERCEL_TOKEN=vcp_${chars(ALNUM, 24)}`, () => `vca_${chars(ALNUM, 40)}`],
  databricks: [() => `DATABRICKS_TOKEN=dapi${chars(HEX, 32)}`, () => `dapi${chars(HEX, 32)}-2`],
  docker: [() => `docker login -u ci -p dckr_pat_${chars(ALNUM, 27)}`, () => `dckr_pat_${chars(ALNUM, 27)}`],
  figma: [() => `FIGMA_TOKEN=figd_${chars(ALNUM, 44)}`, () => `figd_${chars(ALNUM, 40)}`],
};

function plantedBody(rule, secret, i) {
  if (rule === 'gcp') return secret + '\n';
  const intro = cleanBody(1000 + i).split('\n');
  const at = int(3, intro.length - 2);
  const say = pick(['The failing curl printed:', 'From the .env I was given:', 'Log line from the deploy:', 'Pasted from the CI output:', 'Config that worked locally:']);
  return [...intro.slice(0, at), say, secret, ...intro.slice(at)].join('\n');
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(path.join(OUT, 'clean'), { recursive: true });
mkdirSync(path.join(OUT, 'planted'), { recursive: true });
for (let i = 0; i < 200; i++) writeFileSync(path.join(OUT, 'clean', `${String(i).padStart(3, '0')}.md`), cleanBody(i));
let n = 0;
for (const [rule, makers] of Object.entries(PLANTED)) {
  for (const make of makers) {
    for (let copy = 0; copy < (makers.length === 1 ? 3 : 1); copy++) {
      writeFileSync(path.join(OUT, 'planted', `${String(n).padStart(3, '0')}-${rule}.md`), plantedBody(rule, make(), n));
      n++;
    }
  }
}
// two rules in one body
writeFileSync(path.join(OUT, 'planted', `${String(n++).padStart(3, '0')}-github+slack.md`), plantedBody('github', `GH_TOKEN=ghp_${chars(ALNUM, 36)}\nSLACK=xoxb-${int(1e11, 9e11)}-${int(1e12, 9e12)}-${chars(ALNUM, 24)}`, n));
process.stdout.write(`wrote 200 clean and ${n} planted bodies under ${path.relative(process.cwd(), OUT)}\n`);
