import { describeProvider } from '../src/index.js';
import { memfsUnderTest } from './memfs-testbed.js';

describeProvider('memfs', () => memfsUnderTest());
