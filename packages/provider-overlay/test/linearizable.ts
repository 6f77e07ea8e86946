/** One effective edit a person made to a name: a write (exclusive: it needed the name missing) or a delete that removed something. */
export type PersonEdit = { readonly op: 'write'; readonly content: string; readonly exclusive?: boolean } | { readonly op: 'delete' };

/** What a name holds: its bytes as text, or null when missing. */
export type NameState = string | null;

/**
 * One step the apply may have made on a name. `swap`: a compare-and-swap from `from` to `to`, in one
 * atomic call (a guarded write or an exclusive creation). `take`: a delete by compare-and-swap, which
 * the provider interface can only do as two calls: move whatever the name holds aside at once, then
 * unlink it if it holds `expect`, or else put it back, unless the name was taken meanwhile (the
 * newer file stays). A `required` step landed; an optional one landed or found something else.
 */
export type ApplyStep =
  | { readonly kind: 'swap'; readonly from: NameState; readonly to: NameState; readonly required: boolean }
  | { readonly kind: 'take'; readonly expect: string; readonly required: boolean };

/**
 * Whether `final` is what some interleaving gives of the person's edits (in their order, each one
 * possible where it falls: an exclusive write needs the name missing, a delete needs something
 * there) with one of the apply's `alternatives` (its steps in order). If none explains what the
 * disk holds, the apply lost an edit or one of its steps was not what it claims to be.
 */
export function explainable(
  base: NameState,
  edits: readonly PersonEdit[],
  alternatives: ReadonlyArray<readonly ApplyStep[]>,
  final: NameState,
): boolean {
  return alternatives.some((steps) => walk({ state: base, edit: 0, step: 0, aside: null }, edits, steps, final));
}

interface Point {
  readonly state: NameState;
  readonly edit: number;
  readonly step: number;
  /** What a take moved aside and has not yet put back. */
  readonly aside: string | null;
}

function walk(at: Point, edits: readonly PersonEdit[], steps: readonly ApplyStep[], final: NameState): boolean {
  const { state, edit, step, aside } = at;
  if (edit === edits.length && step === steps.length && aside === null) return state === final;
  const go = (next: Partial<Point>) => walk({ ...at, ...next }, edits, steps, final);
  if (aside !== null) {
    // The take puts back what it moved, or finds the name taken and leaves the newer file.
    if (go({ state: state === null ? aside : state, aside: null })) return true;
  } else {
    const next = steps[step];
    if (next?.kind === 'swap') {
      if (state === next.from && go({ state: next.to, step: step + 1 })) return true;
      if (state !== next.from && !next.required && go({ step: step + 1 })) return true;
    } else if (next?.kind === 'take') {
      if (state === next.expect && go({ state: null, step: step + 1 })) return true;
      if (!next.required && state !== next.expect && go({ state: null, step: step + 1, aside: state })) return true;
    }
  }
  const mine = edits[edit];
  if (mine === undefined) return false;
  if (mine.op === 'delete') return state !== null && go({ state: null, edit: edit + 1 });
  if (mine.exclusive === true && state !== null) return false;
  return go({ state: mine.content, edit: edit + 1 });
}
