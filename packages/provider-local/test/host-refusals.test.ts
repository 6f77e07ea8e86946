import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { expectFailure } from './expect-error.js';
import { createLocalTestbed } from './local-testbed.js';
import type { Sandbox } from './local-testbed.js';

// An immutable file is refused by the host even to root (EPERM on unlink and on rename over it):
// a refusal the provider cannot get around must read as one, not as a race to retry.

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);

let beds: Array<{ sandbox: Sandbox; provider: FileSystemProviderV1; immutable: string[] }> = [];
afterEach(async () => {
  for (const { sandbox, provider, immutable } of beds) {
    for (const path of immutable) execFileSync('chattr', ['-i', path]);
    await provider.close();
    sandbox.remove();
  }
  beds = [];
});

/** A testbed whose `t/locked` is immutable; null where chattr is not permitted. */
function bedWithImmutableFile() {
  const bed = { ...createLocalTestbed(), immutable: [] as string[] };
  beds.push(bed);
  mkdirSync(bed.sandbox.at('t/sub'), { recursive: true });
  writeFileSync(bed.sandbox.at('t/a.txt'), 'a');
  writeFileSync(bed.sandbox.at('t/locked'), 'kept');
  try {
    execFileSync('chattr', ['+i', bed.sandbox.at('t/locked')], { stdio: 'ignore' });
  } catch {
    return null;
  }
  bed.immutable.push(bed.sandbox.at('t/locked'));
  return bed;
}

it('a recursive delete that meets a file the host will not unlink fails as a host refusal', async (context) => {
  const bed = bedWithImmutableFile();
  if (bed === null) return context.skip();
  const error = await expectFailure(bed.provider.deleteDirectory(p('t'), { recursive: true, missingOk: false }), 'provider_failure', 'unknown');
  expect(error.message).toContain("'t/locked'");
  // It stops at the refusal: what it met before is gone, the immutable file stays.
  expect(readdirSync(bed.sandbox.at('t'))).toContain('locked');
});

it('deleting or replacing that file fails as a host refusal and leaves no temporary file', async (context) => {
  const bed = bedWithImmutableFile();
  if (bed === null) return context.skip();
  await expectFailure(bed.provider.deleteFile(p('t/locked'), { missingOk: false }), 'provider_failure');
  await expectFailure(bed.provider.writeFile(p('t/locked'), new Uint8Array([1]), { overwrite: true }), 'provider_failure');
  expect(readdirSync(bed.sandbox.at('t')).sort()).toEqual(['a.txt', 'locked', 'sub']);
});
