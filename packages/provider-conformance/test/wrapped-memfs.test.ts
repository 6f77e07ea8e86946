// A wrapper built with wrapProvider must leave a provider conformant: the empty middleware forwards
// every method the interface has, so the whole kit passes over it as over memfs itself.
import { wrapProvider } from '@libos/provider-kit';
import { describeProvider } from '../src/index.js';
import { memfsTestbed } from './memfs-testbed.js';

describeProvider('memfs wrapped by wrapProvider', () => {
  const underTest = memfsTestbed().underTest;
  return { ...underTest, provider: wrapProvider(underTest.provider, {}) };
});
