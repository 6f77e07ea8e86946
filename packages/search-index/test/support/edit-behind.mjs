// A second process that edits, creates and deletes files of a tree while another searches it.
// Before each change it sends { intent } with the time, after it { done }: the searcher learns
// which token each file holds from the moment a change is done, and since when it may hold another.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [root, countText] = process.argv.slice(2);
const count = Number(countText);
const paths = Array.from({ length: 20 }, (_, index) => `sub${index % 4}/f${index}.txt`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const send = (message) => new Promise((resolve) => process.send(message, resolve));

for (let op = 0; op < count; op++) {
  // Every 40th change a new directory with one file in it: the index must enter what appears.
  const path = op % 40 === 39 ? `new${op}/deep/f.txt` : paths[op % paths.length];
  const kind = op % 10 === 9 ? 'delete' : 'write';
  await send({ phase: 'intent', op, path, kind, at: Date.now() });
  const file = join(root, path);
  if (kind === 'delete') rmSync(file, { force: true });
  else {
    mkdirSync(join(file, '..'), { recursive: true });
    // Every write the same size: a size alone never tells the index a file changed.
    writeFileSync(file, `head\ntok${String(op).padStart(6, '0')}\n${'x'.repeat(200)}\n`);
  }
  await send({ phase: 'done', op, path, kind, at: Date.now() });
  await sleep(2);
}
