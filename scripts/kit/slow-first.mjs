// @ts-check
/**
 * A test order for two cores: the files known to take longest start first, slowest first, so the run
 * does not end with one of them going on alone while the other core waits. Vitest's own order (the
 * durations of the last run on this machine, else the largest file first, project by project) sorts
 * the rest; a fresh clone has no last run, and its largest files are not its slowest.
 *
 * A file is named by its path from the repository's root. A name that matches no file is ignored
 * (a file split or renamed falls back to vitest's order), and a file not named runs as vitest orders it:
 * nothing is left out either way. scripts/ci-timings.ts prints the slowest files of a run's JSON report,
 * to keep the lists true. Plain JavaScript, typed by its comments, so the vitest configs import it by
 * its full name.
 */
import path from 'node:path';
import { BaseSequencer } from 'vitest/node';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A sequencer class for `test.sequence.sequencer` that starts `slowest` (paths from the root, slowest
 * first) first.
 * @param {readonly string[]} slowest
 * @returns {typeof BaseSequencer}
 */
export function slowFirst(slowest) {
  const rank = new Map(slowest.map((file, index) => [path.join(ROOT, file), index]));
  /** @param {import('vitest/node').TestSpecification} spec */
  const rankOf = (spec) => rank.get(spec.moduleId) ?? slowest.length;
  return class SlowFirst extends BaseSequencer {
    /**
     * @override
     * @param {import('vitest/node').TestSpecification[]} files
     */
    async sort(files) {
      const ordered = await super.sort(files);
      // Array.prototype.sort is stable: the files not named keep vitest's order after the named ones.
      return [...ordered].sort((a, b) => rankOf(a) - rankOf(b));
    }
  };
}
