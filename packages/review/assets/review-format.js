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
  if (change.kind === 'directory') {
    return change.files_within > 0 ? `directory, ${change.files_within} ${change.files_within === 1 ? 'file' : 'files'}` : 'directory';
  }
  if (change.base && change.current) return `${bytes(change.base.size_bytes)} → ${bytes(change.current.size_bytes)}`;
  return bytes((change.current ?? change.base)?.size_bytes);
}

export function diffLine(line) {
  let kind = 'context';
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ')) kind = 'meta';
  else if (line.startsWith('@@')) kind = 'hunk';
  else if (line.startsWith('+')) kind = 'add';
  else if (line.startsWith('-')) kind = 'del';
  else if (line.startsWith('\\') || line.startsWith('[')) kind = 'note';
  return element('span', { class: `diff-line ${kind}`, text: line.length === 0 ? ' ' : line });
}

export function short(hash) {
  return hash ? `${hash.slice(0, 12)}…` : 'no file';
}

export function plural(count, word) {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The totals line: every change, by kind, whatever the page shows. */
export function showTotals(totals) {
  const node = document.getElementById('totals');
  node.replaceChildren();
  const parts = ['added', 'modified', 'deleted', 'replaced'];
  const all = parts.reduce((sum, kind) => sum + totals[kind], 0);
  node.append(element('strong', { text: `${all} ${all === 1 ? 'change' : 'changes'}` }), ': ');
  parts.forEach((kind, index) => {
    if (index > 0) node.append(' · ');
    node.append(`${totals[kind]} ${kind}`);
  });
}
