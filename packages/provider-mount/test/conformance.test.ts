import type { FactoryContext, ProviderUnderTest } from '@libos/provider-conformance';
import { describeProvider } from '@libos/provider-conformance';
import { createMountProvider } from '../src/index.js';
import { type Backing, localBacking, memfsBacking } from './backings.js';
import { mountView } from './mount-view.js';

// The unmodified kit runs in one mount (its workspace is the mount point), while the other mount
// holds a file of its own: the sibling's whole store is part of the kit's "outside" fingerprint, so
// any case that reached across the mount boundary would fail.
async function kitIn(name: 'web' | 'api', backings: { web: Backing; api: Backing }, { onCleanup }: FactoryContext): Promise<ProviderUnderTest> {
  const under = backings[name];
  const sibling = backings[name === 'web' ? 'api' : 'web'];
  const provider = createMountProvider({ web: backings.web.provider, api: backings.api.provider });
  onCleanup(async () => {
    await provider.close();
    backings.web.remove();
    backings.api.remove();
  });
  await sibling.fixtures.writeFile('sibling/kept.txt', 'the other mount');
  const outside = under.fixtures.outside;
  if (outside === undefined) throw new Error('The backings always have outside fixtures.');
  return {
    provider: mountView(provider, name),
    fixtures: { ...under.fixtures, outside: { ...outside, fingerprint: async () => `${await outside.fingerprint()} ${sibling.wholeFingerprint()}` } },
    hostRoot: under.hostRoot,
  };
}

describeProvider('mount: memfs at web beside memfs at api', (context) => kitIn('web', { web: memfsBacking(), api: memfsBacking() }, context));
describeProvider('mount: local at web beside memfs at api', (context) => kitIn('web', { web: localBacking(), api: memfsBacking() }, context));
// Both local: every mount opens directories, so the kit's handle cases run through the mount too;
// and in the second mount (api), so a mount that is not the first in code-point order is proved too.
describeProvider('mount: local at api beside local at web', (context) => kitIn('api', { web: localBacking(), api: localBacking() }, context));
