import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';

const START = '<!-- results:start (written by `pnpm bench`; edit nothing inside) -->';
const END = '<!-- results:end -->';

/** The machine a run happened on, as far as Node and findmnt can tell. */
export function describeMachine(directory) {
  let filesystem = 'unknown';
  try {
    filesystem = execFileSync('findmnt', ['-no', 'FSTYPE', '-T', directory], { encoding: 'utf8' }).trim();
  } catch {}
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memory_gib: Math.round(totalmem() / 1024 ** 3),
    kernel: release(),
    node: process.version,
    fixtures_filesystem: filesystem,
    load_average_at_start: loadavg().map((value) => Number(value.toFixed(2))),
  };
}

const format = (value, unit) => (unit === 'MB' ? `${value.toFixed(1)} MB` : value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(0)} ms`);

/**
 * Each row with its ratio (ours / theirs) and whether its target, if any, is met; a row run beside
 * the reference server 2.x too (`theirs_v2`) also gets `ratio_v2`. Targets stay on 2026.8.31.
 */
export function withRatios(rows) {
  return rows.map((row) => {
    const ratio = row.ours / row.theirs;
    const ours = Number(row.ours.toFixed(3));
    const theirs = Number(row.theirs.toFixed(3));
    const v2 =
      row.theirs_v2 === undefined ? {} : { theirs_v2: Number(row.theirs_v2.toFixed(3)), ratio_v2: Number((row.ours / row.theirs_v2).toFixed(3)) };
    return { ...row, ours, theirs, ...v2, ratio: Number(ratio.toFixed(3)), met: row.target == null ? null : ratio <= row.target };
  });
}

/** The table as Markdown lines: operation, ours, theirs (or the floor), ratio, reference 2.x and its ratio, target. */
export function tableLines(rows) {
  const lines = ['| operation | ours | theirs / floor | ratio | reference 2.x | ratio | target |', '|---|---:|---:|---:|---:|---:|---|'];
  for (const row of rows) {
    const target = row.target == null ? 'reported' : `<= ${row.target} ${row.met ? 'met' : '**missed**'}`;
    const v2 = row.theirs_v2 === undefined ? '| | |' : `| ${format(row.theirs_v2, row.unit)} | ${row.ratio_v2.toFixed(2)} |`;
    lines.push(`| ${row.label} | ${format(row.ours, row.unit)} | ${format(row.theirs, row.unit)} | ${row.ratio.toFixed(2)} ${v2} ${target} |`);
    if (row.extra)
      lines.push(
        `| &nbsp;&nbsp;${Object.entries(row.extra)
          .map(([key, value]) => `${key}: ${value}`)
          .join('; ')} | | | | | | |`,
      );
  }
  return lines;
}

/** Replaces the results block of BENCHMARKS.md with this run's numbers. */
export function updateBenchmarks(file, results) {
  const text = readFileSync(file, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${file} has no results block`);
  const machine = Object.entries(results.machine).map(([key, value]) => `- ${key}: ${Array.isArray(value) ? value.join(' ') : value}`);
  const block = [
    START,
    `Run of ${results.finished_at} (${results.elapsed_s} s), \`${results.command}\`, commit ${results.commit}.`,
    '',
    ...machine,
    '',
    ...tableLines(results.rows),
    END,
  ].join('\n');
  writeFileSync(file, text.slice(0, from) + block + text.slice(to + END.length));
}
