import { readFileSync } from 'node:fs';

/** Peak resident set of a live process in bytes, from VmHWM in /proc/<pid>/status (Linux). */
export function peakRss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}
