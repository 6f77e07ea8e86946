import { LibosError, ROOT_PATH, parseConfig, type ConfigInput, type Grant, type LibosConfig, type WorkspacePath } from '@libos/core';
import { mountNameProblem } from './mount-name.js';

/**
 * The config with the mounts `names` made read-only: one deny grant per mount for `write` and
 * `delete` on its whole tree, whose reason the denial says ("the mount "docs" is read-only"). A
 * deny grant wins over every allow and ask grant, so no call writes there, none asks a person
 * first, and each refusal is a grant denial like any other (decided before anything is probed, the
 * same for an existing and a missing path, recorded as such in the audit trail). A config without
 * grants (no policy: everything allowed) gets one allow grant for the whole workspace first, so
 * that the rest stays as it was. Throws `invalid_arguments` for a name no mount can have.
 */
export function withReadOnlyMounts(config: LibosConfig | ConfigInput | undefined, names: readonly string[]): LibosConfig {
  const parsed = parseConfig(config ?? {});
  if (names.length === 0) return parsed;
  for (const name of names) {
    const problem = mountNameProblem(name);
    if (problem !== undefined) {
      throw new LibosError('invalid_arguments', `A read-only mount name is refused: ${problem}.`, { details: { reason: 'invalid_mount_name' } });
    }
  }
  const everything: Grant = { path: ROOT_PATH, tree: true, rights: ['read', 'write', 'delete'], mode: 'allow' };
  const readOnly = [...new Set(names)].map(
    (name): Grant => ({
      path: name as WorkspacePath,
      tree: true,
      rights: ['write', 'delete'],
      mode: 'deny',
      reason: `the mount ${JSON.stringify(name)} is read-only`,
    }),
  );
  return parseConfig({ ...parsed, grants: [...(parsed.grants ?? [everything]), ...readOnly] });
}
