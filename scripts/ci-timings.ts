// The slowest test files of a run, from vitest's JSON report, to keep the slowest-first lists of
// vitest.config.ts and e2e/vitest.config.ts true (ADR 039):
//   npx vitest run --reporter=default --reporter=json --outputFile.json=/tmp/unit.json
//   npx tsx scripts/ci-timings.ts /tmp/unit.json [how many, 25 by default]
// Prints the run's length, each file's seconds (from its first test's start to its last's end) with when
// it started and ended in the run, slowest first, and the files still running when the run's last
// quarter began.
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface Report {
  startTime: number;
  testResults: { name: string; startTime: number; endTime: number; status: string }[];
}

const [file, count = '25'] = process.argv.slice(2);
if (!file) {
  console.error('usage: npx tsx scripts/ci-timings.ts <vitest JSON report> [how many]');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
const root = path.resolve(import.meta.dirname, '..');
const files = report.testResults.map((result) => ({
  file: path.relative(root, result.name),
  seconds: (result.endTime - result.startTime) / 1000,
  start: (result.startTime - report.startTime) / 1000,
  end: (result.endTime - report.startTime) / 1000,
  status: result.status,
}));
const length = Math.max(0, ...files.map((entry) => entry.end));
const total = files.reduce((sum, entry) => sum + entry.seconds, 0);
console.log(
  `${files.length} files, ${length.toFixed(0)} s from the first start to the last end, ${total.toFixed(0)} s of files`,
);
const row = (entry: (typeof files)[number]) =>
  `${entry.seconds.toFixed(1).padStart(7)} s  ${entry.start.toFixed(0).padStart(5)} → ${entry.end.toFixed(0).padStart(5)}  ${entry.file}${entry.status === 'passed' ? '' : ` (${entry.status})`}`;
for (const entry of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, Number(count))) console.log(row(entry));
const late = files.filter((entry) => entry.end > length * 0.75 && entry.seconds > length * 0.05);
if (late.length > 0) {
  console.log('long files in the last quarter:');
  for (const entry of late) console.log(row(entry));
}
