// Keeps changing a tree through an indexed provider and saving the index, until it is killed.
import { randomBytes } from 'node:crypto';
import { createLocalProvider } from '@libos/provider-local';
import { withSearchIndex } from '@libos/search-index';

const [root, directory] = process.argv.slice(2);
const indexed = withSearchIndex(createLocalProvider({ root }), { directory });
process.send('ready');
for (let round = 0; ; round++) {
  const path = `d${round % 7}/f${round % 31}.txt`;
  await indexed.provider.writeFile(path, Buffer.from(`needle${round % 5} ${randomBytes(64).toString('hex')}\n`), { overwrite: true });
  await indexed.warm();
}
