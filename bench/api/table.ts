// The API bench's figures as a table on the terminal, then the other results as one JSON line.
import type { ApiResults } from '../figures';

export function printResults(results: ApiResults): void {
  const pad = (text: string | number, width: number) => String(text).padEnd(width);
  console.log(`\nAPI at 5,000 students / 1.5 M attendance records, ${results.kind}, ${results.seconds} s per figure`);
  console.log(
    `${pad('call', 28)}${pad('KB', 8)}${pad('1 conn p50/p99 ms', 20)}${pad('bare p99', 10)}${pad('32 conn p50/p99 ms', 21)}${pad('req/s', 8)}${pad('bare req/s', 11)}`,
  );
  for (const call of results.calls) {
    console.log(
      `${pad(call.name, 28)}${pad((call.bytes / 1024).toFixed(1), 8)}${pad(`${call.c1.ours.p50}/${call.c1.ours.p99}`, 20)}${pad(call.c1.bare.p99, 10)}${pad(`${call.c32.ours.p50}/${call.c32.ours.p99}`, 21)}${pad(Math.round(call.c32.ours.rps), 8)}${pad(Math.round(call.c32.bare.rps), 11)}`,
    );
  }
  console.log(
    JSON.stringify({
      approve: results.approve,
      send: results.send,
      console: results.console,
      imports: results.imports,
      memory: results.memory,
    }),
  );
}
