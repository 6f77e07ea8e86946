export const AUDIT_HELP = `Usage: libos audit keygen KEY
       libos audit verify FILE [--public-key KEY.pub]
       libos audit show FILE [--tool T] [--path P] [--since TIME] [--json]

An audit log (written by \`libos mcp|serve|call|shell --audit FILE\`) holds one record per tool call
and per overlay operation, chained by SHA-256, with checkpoints in FILE.checkpoints. It never holds
content: no file bytes, payloads, edit text or queries (docs/audit.md).

  keygen KEY             Write a new Ed25519 key pair: KEY (private, 0600) and KEY.pub; pass
                         --audit-key KEY to the server so that it signs every checkpoint
  verify FILE            Check the chain, the checkpoints and (with --public-key) their signatures;
                         prints {ok, records, checkpoints, last_seq} and exits 0, or
                         {ok: false, first_bad_seq, reason} and exits 1
  show FILE              The records as a table (or JSON lines with --json); SEQ counts every record
                         (reads, refusals, sessions), so it is not libos history's seq, which counts
                         an overlay's changing calls only
    --tool T             Only calls of tool T (or an operation: apply, undo_apply, discard, rewind)
    --path P             Only records naming P or a path inside it
    --since TIME         Only records from TIME on (ISO 8601, e.g. 2026-12-01T20:00:00Z)
`;
