import { describe, expect, it } from 'vitest';
import * as main from '../src/index.js';
import * as testing from '../src/testing.js';
import { createSandbox } from './local-testbed.js';

describe('entries', () => {
  it('keeps the testing hooks out of the main entry, in ./testing only', () => {
    // The search threads' bound is a process-wide setting, as tools' setRegexPoolSize is: not a hook.
    expect(Object.keys(main).sort()).toEqual(['createLocalProvider', 'searchThreadStats', 'setSearchThreads']);
    expect(Object.keys(testing)).toEqual(['createLocalProviderWithHooks']);
  });

  it('ignores testing hooks smuggled into the main options', async () => {
    const sandbox = createSandbox();
    try {
      // A stand-in /proc would make creation fail if the main entry still read hooks from its options.
      const options = { root: sandbox.root, testingHooks: { procFdDirectory: '/nonexistent' } };
      await main.createLocalProvider(options as never).close();
    } finally {
      sandbox.remove();
    }
  });
});
