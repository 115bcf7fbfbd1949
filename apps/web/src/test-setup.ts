import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup } from '@testing-library/react';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach } from 'vitest';
import { closeQueueDatabase } from './lib/offline/mark-queue';
import { preloadEnglish } from './testing/english';

// Every namespace's English is there before any test renders (the app loads a screen's when it shows).
preloadEnglish();

afterEach(() => {
  cleanup();
  localStorage.clear();
  // Each test starts with an empty device: no queued marks left by the one before.
  closeQueueDatabase();
  globalThis.indexedDB = new IDBFactory();
});
