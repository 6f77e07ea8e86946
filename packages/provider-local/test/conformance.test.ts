import { describeProvider } from '@libos/provider-conformance';
import { createLocalProvider } from '../src/index.js';
import { createLocalFixtures, createSandbox } from './local-testbed.js';

// Once as embedders get it by default, once as `libos mcp` runs it (borrowing the working directory).
for (const borrowWorkingDirectory of [false, true]) {
  describeProvider(borrowWorkingDirectory ? 'local, borrowing the working directory' : 'local', ({ onCleanup }) => {
    const sandbox = createSandbox();
    const provider = createLocalProvider({ root: sandbox.root, borrowWorkingDirectory });
    onCleanup(async () => {
      await provider.close();
      sandbox.remove();
    });
    return { provider, fixtures: createLocalFixtures(sandbox), hostRoot: sandbox.root };
  });
}
