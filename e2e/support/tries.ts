// Each browser file's set-up (vitest.config.ts): a try that fails says why at once, as a line that
// starts with FAIL, even when the test then passes on its second try. Vitest itself keeps only the
// last try's error, so a test marked "(retry x1)" said nothing of its first (ADR 062, ADR 064), and
// npm test's closing summary repeats these lines.
import { beforeEach } from 'vitest';

beforeEach(({ onTestFailed }) => {
  onTestFailed(({ task }) => {
    const reason = String(task.result?.errors?.[0]?.message ?? 'no error recorded').split('\n')[0];
    const where = `${task.file?.name ?? ''} > ${task.name}`;
    process.stderr.write(`FAIL (try ${(task.result?.retryCount ?? 0) + 1}) ${where}: ${reason?.slice(0, 160)}\n`);
  });
});
