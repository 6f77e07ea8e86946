// The README's walk-through provider, through the package's own `./example` export, as a user imports it.
import { describeProvider } from '@libos/provider-conformance';
import { createKeyValueFixtures, createKeyValueProvider, createKeyValueStore } from '@libos/provider-conformance/example';

describeProvider('key-value (the README example)', () => {
  const store = createKeyValueStore();
  return { provider: createKeyValueProvider(store), fixtures: createKeyValueFixtures(store) };
});
