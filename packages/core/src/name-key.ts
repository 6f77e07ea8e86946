// U+00A0 NO-BREAK SPACE and U+202F NARROW NO-BREAK SPACE: editors and word processors put them where
// a person typed a space, and they look like one.
const LOOK_ALIKE_SPACES = /[\u00A0\u202F]/g;

// A name another spelling could equal (docs/rules.md, "Names in another Unicode form"): one with a
// character outside ASCII, or one of the four ASCII characters that a non-ASCII character becomes
// under NFC or the space rule (U+037E to `;`, U+1FEF to a backquote, U+212A KELVIN SIGN to `K`,
// U+00A0 and U+202F to a space). Every other ASCII name is its own only spelling.
const MAY_HAVE_LOOK_ALIKES = /[^\u0000-\u007F]|[;`K ]/;

/**
 * The key two entry names share when a reader cannot tell them apart: the name in Unicode NFC, with
 * U+00A0 and U+202F read as a plain space. Equal keys name the same entry for the lookup of a
 * name that is not found exactly, for grants and for labels.
 */
export function nameKey(name: string): string {
  if (!MAY_HAVE_LOOK_ALIKES.test(name)) return name;
  return name.normalize('NFC').replace(LOOK_ALIKE_SPACES, ' ');
}

/** `nameKey` of each component of a path (or of a canonical path), keeping its `/` separators. */
export function pathKey(path: string): string {
  if (!MAY_HAVE_LOOK_ALIKES.test(path)) return path;
  return path.split('/').map(nameKey).join('/');
}

/**
 * Tells whether some other spelling could share the key of `text` (a name or a path): false for
 * almost every ASCII name, so a caller can skip any lookup for it.
 */
export function mayHaveLookAlikes(text: string): boolean {
  return MAY_HAVE_LOOK_ALIKES.test(text);
}
