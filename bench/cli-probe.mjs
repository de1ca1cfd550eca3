// Preloaded (`node --import`) into each process of bench/cli.ts: at exit, writes the process's wall
// time since this module loaded, its CPU time, and its peak RSS (the kernel's count) to BENCH_PROBE_OUT. With
// BENCH_FAKE_TTY, stderr claims to be a 120-column terminal, so the command draws its progress line
// (to /dev/null): what the line costs the command, without a terminal's own rendering.
import { writeFileSync } from 'node:fs';

const started = performance.now();
if (process.env.BENCH_FAKE_TTY) {
  Object.defineProperty(process.stderr, 'isTTY', { value: true });
  Object.defineProperty(process.stderr, 'columns', { value: 120 });
}
process.on('exit', () => {
  const [seconds, usage] = [(performance.now() - started) / 1000, process.resourceUsage()];
  const [cpuSeconds, maxRssMB] = [(usage.userCPUTime + usage.systemCPUTime) / 1e6, usage.maxRSS / 1024];
  writeFileSync(process.env.BENCH_PROBE_OUT, JSON.stringify({ seconds, cpuSeconds, maxRssMB }));
});
