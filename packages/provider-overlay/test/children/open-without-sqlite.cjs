// Preloaded with --require: better-sqlite3 cannot be resolved, as in an install without it.
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function hidden(request, ...rest) {
  if (request === 'better-sqlite3') throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
  return resolve.call(this, request, ...rest);
};
