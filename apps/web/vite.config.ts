/// <reference types="vitest/config" />
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [react(), precompress()],
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
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test-setup.ts'],
  },
});
