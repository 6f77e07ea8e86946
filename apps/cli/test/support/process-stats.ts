import { readFile } from 'node:fs/promises';

/** CPU ticks used so far and the scheduler state of a process, from /proc. */
export async function cpuOf(pid: number): Promise<{ ticks: number; state: string }> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0]!, ticks: Number(fields[11]) + Number(fields[12]) };
}

/** Peak resident memory (VmHWM) of a process, in bytes. */
export async function peakRssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/u.exec(status)![1]) * 1024;
}

/**
 * Waits until the server has stopped working: asleep and using no CPU over many samples. A
 * server that kept reading would be working through its requests all that time.
 */
export async function waitUntilIdle(pid: number): Promise<void> {
  let last = -1;
  let still = 0;
  for (let sample = 0; sample < 600 && still < 10; sample += 1) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { ticks, state } = await cpuOf(pid);
    still = ticks === last && state === 'S' ? still + 1 : 0;
    last = ticks;
  }
}
