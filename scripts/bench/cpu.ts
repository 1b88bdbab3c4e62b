import { readFileSync } from 'node:fs';

// CPU time used by a process, to say where each request's work is done. /proc is Linux's: on
// other systems the figure is NaN (printed "n/a").

/** User + system CPU time of process `pid` so far, in ms. */
export function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and
    // 13th, in clock ticks of 1/100 s on Linux.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** User + system CPU time of this process so far, in ms. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
