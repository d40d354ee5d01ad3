// Preloaded (NODE_OPTIONS=--import) into a benchmarked child process: at exit it writes the process's
// peak RSS (MB) to BENCH_RSS_FILE, so a bench can compare the peak of processes it starts from the shell.
import fs from 'node:fs';

if (process.env.BENCH_RSS_FILE) {
  process.on('exit', () => fs.writeFileSync(process.env.BENCH_RSS_FILE, String(Math.round((process.resourceUsage().maxRSS * 1024) / 1048576))));
}
