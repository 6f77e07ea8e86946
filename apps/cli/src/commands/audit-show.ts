import { escapeForDisplay } from '@libos/core';
import type { AuditRecord, RecordFilter } from '@libos/audit';

type ReadRecords = (file: string, filter: RecordFilter, onRecord: (record: AuditRecord) => void) => void;

const COLUMNS = ['SEQ', 'TIME', 'TOOL', 'PATHS', 'DECISION', 'RESULT', 'MS', 'CLIENT'] as const;

/**
 * Prints the records that pass the filter, streaming: JSON lines as they are, or a table whose
 * columns fit the widest cell of each page of 200 rows, every text escaped for display (a path
 * holding ANSI escapes or a bidirectional override shows them as `\u{202E}`).
 */
export function showRecords(readRecords: ReadRecords, file: string, options: RecordFilter & { readonly json: boolean }): void {
  const { json, ...filter } = options;
  let page: string[][] = [];
  let shown = 0;
  const flush = () => {
    if (page.length === 0) return;
    const rows = [[...COLUMNS], ...page];
    const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
    process.stdout.write(
      `${rows
        .map((row) =>
          row
            .map((cell, column) => cell.padEnd(widths[column]!))
            .join('  ')
            .trimEnd(),
        )
        .join('\n')}\n`,
    );
    page = [];
  };
  readRecords(file, filter, (record) => {
    shown += 1;
    if (json) {
      process.stdout.write(`${JSON.stringify(record)}\n`);
      return;
    }
    page.push(rowOf(record));
    if (page.length === 200) flush();
  });
  flush();
  if (!json && shown === 0) process.stdout.write('no records\n');
}

function rowOf(record: AuditRecord): string[] {
  const decision = record.decision;
  const decided = decision === null ? '-' : decision.approval === undefined ? decision.outcome : `${decision.outcome}: ${decision.approval.answer}`;
  const result = record.result.ok ? 'ok' : `${record.result.code} (effect ${record.result.effect})`;
  const paths = Array.isArray(record.paths) ? record.paths.map((path) => escapeForDisplay(path)).join(', ') : '';
  const client =
    record.client === null || typeof record.client !== 'object' ? '-' : escapeForDisplay(`${record.client.name} ${record.client.version}`);
  return [
    String(record.seq),
    String(record.time),
    escapeForDisplay(String(record.tool ?? '-')),
    paths === '' ? '-' : paths,
    decided,
    result,
    String(record.duration_ms),
    client,
  ];
}
