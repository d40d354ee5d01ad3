// Preloaded (NODE_OPTIONS=--import) into a benchmarked child process: at exit it writes the process's
// peak RSS (MB) and CPU time (user + sys of all its threads, s) to BENCH_RSS_FILE as `<MB> <s>`, so a
// bench can compare the peak and the CPU of processes it starts from the shell.
import fs from 'node:fs';

if (process.env.BENCH_RSS_FILE) {
  process.on('exit', () => fs.writeFileSync(process.env.BENCH_RSS_FILE, ((u) => `${Math.round((u.maxRSS * 1024) / 1048576)} ${((u.userCPUTime + u.systemCPUTime) / 1e6).toFixed(2)}`)(process.resourceUsage())));
}
