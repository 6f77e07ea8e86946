// The module a regex worker imports to get RE2: its own URL is where the engine lives, in the
// package's build and in a bundle that inlines re2js alike (the bundle's chunk of this module).
export { RE2JS } from 're2js';

/** This module's URL, for a worker thread to import. */
export const ENGINE_URL: string = import.meta.url;
