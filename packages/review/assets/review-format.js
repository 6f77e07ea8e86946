// The page's building blocks: an element builder (text only, never markup) and the words and sizes a person reads.

export function element(tag, options = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(options)) {
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children) node.append(child);
  return node;
}

export function bytes(size) {
  if (size === null || size === undefined) return '—';
  if (size < 1024) return `${size} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function sizeText(change) {
  if (change.moved_from !== undefined && change.current) return `moved, ${bytes(change.current.size_bytes)}`;
  if (change.kind === 'directory') {
    return change.files_within > 0 ? `directory, ${change.files_within} ${change.files_within === 1 ? 'file' : 'files'}` : 'directory';
  }
  if (change.base && change.current) return `${bytes(change.base.size_bytes)} → ${bytes(change.current.size_bytes)}`;
  return bytes((change.current ?? change.base)?.size_bytes);
}

export function diffLine(line, kind = kindOf(line)) {
  return element('span', { class: `diff-line ${kind}`, text: line.length === 0 ? ' ' : line });
}

function kindOf(line) {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('rename ')) return 'meta';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  if (line.startsWith('\\') || line.startsWith('[')) return 'note';
  return 'context';
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const number = (value) => element('span', { class: 'ln', 'aria-hidden': 'true', text: value === null ? '' : String(value) });

/**
 * The rows of a unified diff, each with its old and new line numbers. Inside a hunk a line is read
 * by the counts its header gives, so a removed line that starts with `--` is a removal, not a header.
 */
export function diffRows(lines, truncated = false) {
  let oldLine = 0;
  let newLine = 0;
  let oldLeft = 0;
  let newLeft = 0;
  const rows = lines.map((line) => {
    let kind = kindOf(line);
    let numbers = [null, null];
    if (oldLeft > 0 || newLeft > 0) {
      const mark = line[0];
      if (mark === '-') {
        kind = 'del';
        numbers = [oldLine++, null];
        oldLeft -= 1;
      } else if (mark === '+') {
        kind = 'add';
        numbers = [null, newLine++];
        newLeft -= 1;
      } else if (mark === '\\') kind = 'note';
      else {
        kind = 'context';
        numbers = [oldLine++, newLine++];
        oldLeft = Math.max(0, oldLeft - 1);
        newLeft = Math.max(0, newLeft - 1);
      }
    } else {
      const hunk = HUNK.exec(line);
      if (hunk !== null) {
        [oldLine, oldLeft, newLine, newLeft] = [Number(hunk[1]), Number(hunk[2] ?? 1), Number(hunk[3]), Number(hunk[4] ?? 1)];
        kind = 'hunk';
      }
    }
    return element('div', { class: `diff-row ${kind}` }, [number(numbers[0]), number(numbers[1]), diffLine(line, kind)]);
  });
  if (truncated) rows.push(diffLine('[the diff is longer than the page shows: run libos diff for all of it]', 'note'));
  return rows;
}

export function short(hash) {
  return hash ? `${hash.slice(0, 12)}…` : 'no file';
}

export function plural(count, word) {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * The totals line: every change, by kind, whatever the page shows, less the new directories that
 * are no row of their own (`folded`, all added). Returns the count it shows.
 */
export function showTotals(totals, folded = 0, renames = []) {
  const node = document.getElementById('totals');
  node.replaceChildren();
  const parts = ['added', 'modified', 'deleted', 'replaced'];
  const counts = { ...totals, added: totals.added - folded };
  // A rename listed as one row counts once, as renamed, not as its delete and its add.
  for (const change of renames) {
    counts[change.change] -= 1;
    counts.deleted -= 1;
  }
  if (renames.length > 0) parts.push('renamed');
  counts.renamed = renames.length;
  const all = parts.reduce((sum, kind) => sum + counts[kind], 0);
  node.append(element('strong', { text: `${all} ${all === 1 ? 'change' : 'changes'}` }), ': ');
  parts.forEach((kind, index) => {
    if (index > 0) node.append(' · ');
    node.append(`${counts[kind]} ${kind}`);
  });
  return all;
}
