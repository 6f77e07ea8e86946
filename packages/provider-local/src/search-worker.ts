import { parentPort } from 'node:worker_threads';
import { type ScanTask, scanDirectoryTask } from './scan-directory-task.js';

// A search thread (see search-threads.ts): one directory per message, its answer with the carried
// bytes moved, not copied.
parentPort?.on('message', (task: ScanTask) => {
  const outcome = scanDirectoryTask(task);
  const moved = outcome.kind === 'done' ? outcome.entries.reads.map(([, read]) => read.bytes.buffer as ArrayBuffer) : [];
  parentPort!.postMessage(outcome, moved);
});
