/**
 * The code of a regex thread: plain CommonJS so it runs from the sources and from the build alike.
 * Each message is one job, `{pattern, flags}` to compile, with `text` and `limit` to find too; the
 * answer is `{hits}` or `{problem}`. The last programs compiled are kept, so the jobs of one search
 * compile its pattern once per thread. Lines end at `\n`, a `\r` before it is not part of the line,
 * and the empty piece after a final newline is not a line (the rules of find-in-text.ts, which
 * turns these hits into matches).
 */
export const REGEX_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const KEPT = 16;
let RE2JS;
const programs = new Map();
const waiting = [];
const compile = (pattern, flags) => {
  const key = flags + ':' + pattern;
  let compiled = programs.get(key);
  if (compiled !== undefined) {
    programs.delete(key);
  } else {
    compiled = RE2JS.compile(pattern, flags);
    if (programs.size >= KEPT) programs.delete(programs.keys().next().value);
  }
  programs.set(key, compiled);
  return compiled;
};
const handle = (message) => {
  let compiled;
  try {
    compiled = compile(message.pattern, message.flags);
  } catch (error) {
    parentPort.postMessage({ problem: 'is not a valid RE2 regular expression (' + String(error && error.message) + ')' });
    return;
  }
  const { text, limit } = message;
  const hits = [];
  if (text === undefined) {
    parentPort.postMessage({ hits });
    return;
  }
  let line = 1;
  for (let start = 0; start < text.length && hits.length < limit; line++) {
    const newline = text.indexOf('\\n', start);
    let end = newline === -1 ? text.length : newline;
    const next = end + 1;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    const piece = text.slice(start, end);
    if (compiled.test(piece)) {
      const matcher = compiled.matcher(piece);
      if (matcher.find()) hits.push([line, start, end, start + matcher.start()]);
    }
    if (newline === -1) break;
    start = next;
  }
  parentPort.postMessage({ hits });
};
parentPort.on('message', (message) => (RE2JS === undefined ? waiting.push(message) : handle(message)));
import(workerData.engine).then((engine) => {
  RE2JS = engine.RE2JS || (engine.default && engine.default.RE2JS);
  for (const message of waiting.splice(0)) handle(message);
});
`;
