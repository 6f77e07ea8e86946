// Starts `libos serve --http` on a free loopback port and resolves with the child and its MCP URL,
// read from the start-up line. EXTRA are more flags (the bench's clients carry no token, so the
// callers pass --single-user unless they measure a build from before that flag).
import { spawn } from 'node:child_process';

export function startServe(cli, root, extra = []) {
  const child = spawn(process.execPath, [cli, 'serve', '--http', '127.0.0.1:0', ...extra, '--root', root], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LIBOS_TOKEN: '' },
  });
  return new Promise((resolve, reject) => {
    let log = '';
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const match = /on (http:\/\/\S+\/mcp)/u.exec(log);
      if (match) resolve({ child, url: new URL(match[1]) });
    });
    child.once('exit', (status) => reject(new Error(`libos serve exited ${status}: ${log}`)));
  });
}
