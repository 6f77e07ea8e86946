import { describeProvider } from '@libos/provider-conformance';
import { createLocalProvider } from '../src/index.js';
import { createLocalFixtures, createSandbox } from './local-testbed.js';

describeProvider('local', ({ onCleanup }) => {
  const sandbox = createSandbox();
  const provider = createLocalProvider({ root: sandbox.root });
  onCleanup(async () => {
    await provider.close();
    sandbox.remove();
  });
  return { provider, fixtures: createLocalFixtures(sandbox), hostRoot: sandbox.root };
});
