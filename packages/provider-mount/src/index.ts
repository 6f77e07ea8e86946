export { createMountProvider } from './create-mount-provider.js';
export type { MountProvider, MountProviderOptions } from './create-mount-provider.js';
export { checkMountNames, mountNameProblem } from './mount-name.js';
export { withReadOnlyMounts } from './read-only-mounts.js';
