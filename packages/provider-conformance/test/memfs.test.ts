import { describeProvider } from '../src/index.js';
import { memfsTestbed } from './memfs-testbed.js';

describeProvider('memfs', () => memfsTestbed().underTest);
