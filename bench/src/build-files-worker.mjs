// Child of build-files.mjs: `node build-files-worker.mjs LAYOUT DIRECTORY COUNT`. Layouts:
// sizes: file-00000.txt ... holding (index % 1000) bytes; empty: entry-000000 ... of 0 bytes;
// tree: 10 top directories x 5 subdirectories, COUNT / 50 empty files in each.
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const [layout, directory, countText] = process.argv.slice(2);
const count = Number(countText);
mkdirSync(directory, { recursive: true });
const leaves = [];
if (layout === 'tree') {
  for (let top = 0; top < 10; top++) {
    for (let sub = 0; sub < 5; sub++) {
      const leaf = join(directory, `top-${top}`, `sub-${sub}`);
      mkdirSync(leaf, { recursive: true });
      leaves.push(leaf);
    }
  }
}
const fileOf = (index) => {
  if (layout === 'sizes') return [join(directory, `file-${String(index).padStart(5, '0')}.txt`), 'y'.repeat(index % 1000)];
  if (layout === 'empty') return [join(directory, `entry-${String(index).padStart(6, '0')}`), ''];
  if (layout === 'tree') return [join(leaves[index % leaves.length], `file-${Math.floor(index / leaves.length)}.txt`), ''];
  throw new Error(`unknown layout ${layout}`);
};
let next = 0;
async function worker() {
  while (next < count) {
    const [path, content] = fileOf(next++);
    await writeFile(path, content, { flag: 'wx' });
  }
}
await Promise.all(Array.from({ length: 16 }, worker));
