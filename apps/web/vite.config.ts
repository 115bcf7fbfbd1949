/// <reference types="vitest/config" />
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { loadGuard } from './build/load-guard.ts';
import { precompress } from './build/precompress.ts';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [
    react(),
    // Both pages say so, and retry, when their first scripts cannot be fetched (ADR 030).
    loadGuard(),
    // The console's service worker (ADR 029): Workbox precaches the console's files (not the parent
    // app's, which has its own worker under /parent/); src/lib/offline registers it.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/service-worker',
      filename: 'console-sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        globPatterns: ['index.html', 'assets/*.{js,css}', 'icons/*.png', 'favicon.svg', 'manifest.webmanifest'],
        globIgnores: ['assets/parent-*'],
        // The console's largest chunk (charts) is over Workbox's 2 MB default once, before compression.
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
    }),
    precompress(),
  ],
  server: { proxy: { '/api': apiTarget } },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // Two pages, two bundles: the staff console (index.html) and the parent app (parent/index.html →
    // dist/parent/index.html). They share only what both import (React), never the console's code.
    rollupOptions: {
      input: {
        console: resolve(import.meta.dirname, 'index.html'),
        parent: resolve(import.meta.dirname, 'parent/index.html'),
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    // Each file in a VM context of its own (its own modules, globals and jsdom, as in a process of its
    // own) on worker threads that stay up: half the time of a new process per file (ADR 039).
    pool: 'vmThreads',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test-setup.ts'],
    // A hang guard, not a speed check: a dialog typed into key by key takes 2 s on a quiet machine and
    // over 20 s when the unit, PostgreSQL and browser runs share two loaded cores (bench/ measures speed).
    testTimeout: 60_000,
  },
});
