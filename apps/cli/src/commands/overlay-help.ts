const COMMON = `Options:
  --root DIR             The workspace the agent's overlay lies on (default: the current directory)
  --provider NAME        Its provider, as given to the agent's server (default: local)
  --overlay STATE        The overlay state file the agent's server was started with (required)
  -h, --help             Show this help
`;

/** `--help` of each overlay command (docs/overlay.md). */
export const OVERLAY_HELP: Readonly<Record<string, string>> = {
  changes: `Usage: libos changes --root DIR --overlay STATE [--limit N] [--cursor C]

Lists what the agent changed, in path order, as JSON: {changes, totals, next_cursor, set_version}.
Each change is {path, change (added|modified|deleted|replaced), kind, base, current, files_within,
version}; totals count every change whatever the page. Pass next_cursor back as --cursor for the
next page. set_version (first page only) is the version of every change, all pages: pass it, or a
change's version, to apply or discard with --shown and nothing the agent changed since lands.
Characters that could hide or reorder text are printed as \\uXXXX escapes (the JSON is the same).

  --limit N              At most N changes (default 1000)
  --cursor C             Continue after the page that returned C
${COMMON}`,
  diff: `Usage: libos diff --root DIR --overlay STATE [PATH...] [--max-bytes N]

Prints a unified diff of the agent's changes (all, or those at or below each PATH, and the new
directories above them). Binary files show their sizes and SHA-256. Past N bytes the diff stops
with a line saying so. Controls, bidirectional and other format characters in names and lines are
printed escaped (\\u{202E}). Last come '# version' lines: the version of each change shown and of
the whole, to pass to apply or discard with --shown.

  --max-bytes N          Cut the diff at N bytes (default 1048576)
${COMMON}`,
  apply: `Usage: libos apply --root DIR --overlay STATE [PATH...] [--all-or-nothing | --per-file]

Writes the agent's changes (all, or those at or below each PATH) into the workspace, each only if
the file on disk is still the one the agent started from (by content). With no PATH it is all or
nothing: one conflict and nothing lands, so the project is never left half changed. With PATHs each
lands on its own. Prints {apply_id, applied, conflicts}; exits 0, or 3 when some paths conflicted
(they stay as they are). For each conflict stderr shows your version on disk (---) against the
agent's (+++) as a diff, and how to resolve it: keep yours with libos discard PATH; take the
agent's (or merge) by editing PATH as shown, then libos discard PATH. A file the agent moved is a
rename (changes lists moved_from and moved_to, diff shows rename from/to): it lands whole, naming
either its old or its new path takes both, and if one half conflicts neither lands (rename_partner).

  --all-or-nothing       Apply nothing if any path conflicts (the default without PATHs)
  --per-file             Land every change that can land, even if others conflict
  --no-merge             A file you edited since the agent's base is a conflict, as a whole; by
                         default a text file is merged: the agent's hunks that do not overlap your
                         edits land, the others are conflicts overlapping_edit and stay
  --hunks 1,3            Land only these hunks (numbered #1, #2, ... by libos diff) of the one PATH
                         named; needs --shown with the version diff printed for it
  --shown VERSION        Apply only what you were shown: a change's version (c-…, repeatable) from
                         libos changes or diff lands only if the agent left it so, else it is a
                         conflict changed_since_shown; a set version (s-…) applies nothing at all
                         if any change of the selection moved, came or went since
${COMMON}`,
  'undo-apply': `Usage: libos undo-apply ID --root DIR --overlay STATE

Puts back what apply ID replaced, each path only if it still holds what the apply wrote, and puts
the changes back in the overlay. Prints {restored, conflicts}.
${COMMON}`,
  discard: `Usage: libos discard --root DIR --overlay STATE [PATH...] [--yes]

Drops the agent's changes (all, or those at or below each PATH); the agent sees the workspace there
again. Nothing keeps a copy, so in a terminal it first says how many changes, files and bytes are
lost and asks y/N (exit 1 on no); without a terminal it needs --yes. Prints {discarded, conflicts};
exits 3 when something was not the version shown. A rename is dropped whole, as apply lands it.

  --yes                  Do not ask (needed without a terminal)
  --shown VERSION        Drop only what you were shown, as for libos apply: a PATH with any change
                         whose version (c-…) was not named stays whole; a set version (s-…) that
                         moved drops nothing
  --hunks 2              Drop only these hunks (numbered by libos diff) of the one PATH named; the
                         others stay; needs --shown with the version diff printed for it
${COMMON}`,
  history: `Usage: libos history --root DIR --overlay STATE

Prints the agent's changing calls since the last apply or discard: {calls: [{seq, tool, paths, at}],
numbering}. seq is the overlay's own count of changing calls (for libos rewind), not the SEQ of
libos audit show, which counts every record of the log; numbering says so.
${COMMON}`,
  fork: `Usage: libos fork --root DIR --overlay STATE --to NEW

Copies the agent's changes into a new state file NEW over the same workspace, for a second agent
(libos mcp --overlay NEW) or a second approach. Each then changes, applies and discards on its own;
an apply of one onto files the other's apply changed merges (see libos apply). Takes time in the
number of changes, not the size of the workspace. Prints {state, changes}.
${COMMON}`,
  rewind: `Usage: libos rewind SEQ --root DIR --overlay STATE

Returns the overlay to where it was right after call SEQ (0: before the first), undoing the later
calls' changes. Prints {rewound}, the number of calls undone.
${COMMON}`,
};

/** `libos review --help`. */
export const REVIEW_HELP = `Usage: libos review --root DIR --overlay STATE [--audit FILE] [--approvals DIR] [--listen 127.0.0.1:PORT]
       libos review --approvals DIR [--listen 127.0.0.1:PORT]

Serves a page where a person reviews what the agent on --overlay STATE changed: every change with
totals, each diff (binary files by size and SHA-256), and buttons to apply or discard one change, a
selection or all (all-or-nothing), with conflicts and their reasons, and undo of the last apply. It
runs the same operations as libos apply, discard and undo-apply. Prints the page's address, with a
token for this run in its fragment, on stdout; runs until Ctrl-C.

Safety: loopback only; every API request needs the token, every change also the page's own Origin;
a GET never changes anything; the page loads nothing from another host.

  --listen HOST:PORT     A loopback address to listen on (default 127.0.0.1 and a free port)
  --audit FILE           Show the calls that made each change; record each apply, discard and undo
                         in FILE (it must not be held by a running server then)
  --approvals DIR        List the calls waiting in DIR (libos mcp|serve --approvals DIR) under
                         "Pending approvals", each with Approve and Reject; alone, without
                         --overlay, the page answers approvals only
${COMMON}`;
