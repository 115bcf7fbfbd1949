/**
 * Compiles the server for plain Node into dist/: the server and its command-line programs, each one
 * file (dist/server.js, dist/backup.js, …) over shared chunks, every one of them directly in dist/. The
 * contract package is TypeScript source and is bundled in; the npm dependencies stay outside, loaded
 * from node_modules as usual.
 *   npm run build -w @tuitiondesk/server      (part of `npm run build`)
 *
 * Files the code reads beside itself at run time go with it: each `new URL('./file', import.meta.url)`
 * in a bundled source names one, and the build copies that file into dist/, where the same URL finds
 * it from the bundled code. Files of the package itself (the migrations, the console's build) are found
 * through SERVER_DIR (src/lib/server-dir.ts). Any other use of import.meta fails the build: it would
 * point at dist/ once bundled and quietly find nothing.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

const PACKAGE_DIR = import.meta.dirname;
const OUT_DIR = path.join(PACKAGE_DIR, 'dist');

/** The programs, by the name of their file in dist/. */
const PROGRAMS: Record<string, string> = {
  server: 'src/server.ts',
  backup: 'src/scripts/backup.ts',
  restore: 'src/scripts/restore.ts',
  'seed-demo': 'src/scripts/seed-demo.ts',
  'rotate-signing-key': 'src/scripts/rotate-signing-key.ts',
  'reset-password': 'src/scripts/reset-password.ts',
};

/** The one file allowed to look at import.meta other than to name a file beside it. */
const SERVER_DIR_MODULE = path.join(PACKAGE_DIR, 'src/lib/server-dir.ts');
const FILE_BESIDE = /new URL\(\s*'\.\/([^'/]+)',\s*import\.meta\.url\s*\)/g;

/** The npm dependencies, left to node_modules; the workspace's own packages (version `*`) are bundled. */
function externalPackages(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return Object.entries(manifest.dependencies)
    .filter(([, version]) => version !== '*')
    .map(([name]) => name);
}

/** Collects the files named beside the sources, and refuses any other use of import.meta. */
function filesBeside(found: Map<string, string>): Plugin {
  return {
    name: 'files-beside',
    setup(esbuild) {
      esbuild.onLoad({ filter: /\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        for (const match of source.matchAll(FILE_BESIDE)) {
          const name = match[1] as string;
          const file = path.join(path.dirname(args.path), name);
          const other = found.get(name);
          if (other !== undefined && other !== file) {
            return { errors: [{ text: `${name} is named beside both ${other} and ${file}: dist/ can hold one` }] };
          }
          found.set(name, file);
        }
        const rest = source.replace(FILE_BESIDE, '');
        if (args.path !== SERVER_DIR_MODULE && /import\.meta\b/.test(rest)) {
          return {
            errors: [
              {
                text:
                  `${path.relative(PACKAGE_DIR, args.path)} uses import.meta, which means dist/ once bundled: ` +
                  "name a file beside it with new URL('./file', import.meta.url), or start from SERVER_DIR",
              },
            ],
          };
        }
        return { contents: source, loader: 'ts' };
      });
    },
  };
}

async function main(): Promise<void> {
  rmSync(OUT_DIR, { recursive: true, force: true });
  const beside = new Map<string, string>();
  await build({
    absWorkingDir: PACKAGE_DIR,
    entryPoints: PROGRAMS,
    outdir: OUT_DIR,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: externalPackages(),
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [filesBeside(beside)],
  });
  mkdirSync(OUT_DIR, { recursive: true });
  for (const [name, file] of beside) copyFileSync(file, path.join(OUT_DIR, name));
}

await main();
