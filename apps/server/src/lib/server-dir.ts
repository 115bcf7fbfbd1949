import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's folder (apps/server), where the files read at run time live beside the code:
 * the migrations, and the console's build next door. Found from this file upwards, as the nearest folder
 * holding a package.json, because the code runs from two depths below it: the sources (src/lib/…, run
 * by tsx in development and tests) and the build (dist/*.js, run by node).
 */
function findServerDir(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}

export const SERVER_DIR = findServerDir(path.dirname(fileURLToPath(import.meta.url)));
