// Module resolution hook (see register-fs-glob.mjs): `fs` and `node:fs` imported from inside the
// conformance runner resolve to fs-with-glob.mjs; every other import is left alone.
const shim = new URL('./fs-with-glob.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const fromRunner = context.parentURL?.includes('/@modelcontextprotocol/conformance/') === true;
  if (fromRunner && (specifier === 'fs' || specifier === 'node:fs')) return { url: shim, shortCircuit: true };
  return nextResolve(specifier, context);
}
