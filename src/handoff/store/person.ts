// People as authors (issue 18): `--person` writes as git's configured user, owned as `person:<email>`.
import { HandoffError } from '../../errors';
import { configValue } from '../../git/config-values';
import type { Config, Storage } from '../../git/storage';
import type { SessionRef } from '../state/session';

export const PERSON_PREFIX = 'person:';
/** An email as an owner id can hold it: no whitespace, no brackets or separators that end a trailer value. */
export const EMAIL_RE = /^[^\s<>@,;:"()[\]\\]{1,128}@[^\s<>@,;:"()[\]\\]{1,125}$/;

/** The writer of `--person`: git config user.name / user.email; exit 2 when they are missing or cannot be stored. */
export function personRef(repo: Storage, config: Config = repo.config()): SessionRef {
  const email = configValue(config, 'user.email')?.trim();
  const name = configValue(config, 'user.name')?.trim() || email?.split('@')[0] || '';
  if (!email) {
    throw new HandoffError('usage', 'no-person', '--person writes as the person in git config, and user.email is not set: git config user.email you@example.com (and user.name)');
  }
  if (!EMAIL_RE.test(email) || /[\u0000-\u001f\u007f<>]/.test(name)) {
    throw new HandoffError('usage', 'invalid-person', `--person: git config user.email ${JSON.stringify(email)} / user.name ${JSON.stringify(name)} cannot be recorded (one email, no spaces or <>; a name without <> or control characters)`);
  }
  return { id: PERSON_PREFIX + email, client: 'cli', source: '--person', person: { name, email } };
}
