// A person editing the workspace ROOT through another libOS runtime, while told to ("go ROUND"),
// until told "stop"; then it reports every effective edit it made, in order.
import { resolveWorkspacePath, ROOT_PATH } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';

const [root, namesJson] = process.argv.slice(2);
const names = JSON.parse(namesJson);
const provider = createLocalProvider({ root });
let running = false;
let log = [];
let round = 0;
let counter = 0;

async function edit() {
  const name = names[Math.floor(Math.random() * names.length)];
  const path = resolveWorkspacePath(ROOT_PATH, name);
  const choice = Math.random();
  const content = `person ${round} ${counter++}\n`;
  try {
    if (choice < 0.5) {
      await provider.writeFile(path, new TextEncoder().encode(content), { overwrite: true });
      log.push({ op: 'write', name, content });
    } else if (choice < 0.75) {
      await provider.writeFile(path, new TextEncoder().encode(content), { overwrite: false });
      log.push({ op: 'write', name, content, exclusive: true });
    } else {
      const { deleted } = await provider.deleteFile(path, { missingOk: true });
      if (deleted) log.push({ op: 'delete', name });
    }
  } catch {
    // already_exists, a directory in the way, a lock held too long: not an edit.
  }
}

async function loop() {
  while (running) {
    await edit();
    // A turn of the event loop, so "stop" is heard even when every edit settles at once.
    await new Promise((resolve) => setImmediate(resolve));
  }
  process.send({ round, log });
}

process.on('message', (message) => {
  if (message.type === 'go') {
    round = message.round;
    log = [];
    running = true;
    void loop();
  } else if (message.type === 'stop') {
    running = false;
  } else if (message.type === 'exit') {
    void provider.close().then(() => process.exit(0));
  }
});
process.send({ ready: true });
