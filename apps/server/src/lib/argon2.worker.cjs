'use strict';
/**
 * Argon2id in a worker thread (passwords.ts keeps one per core): the WebAssembly hash takes tens of
 * milliseconds of CPU, which must not be the event loop's. Plain CommonJS, so it loads the same under
 * tsx, vitest and node.
 *
 * In:  { id, op: 'hash', password, salt (Uint8Array), memoryKiB, iterations, parallelism }
 *      { id, op: 'verify', password, encoded }
 * Out: { id, ok: true, value: string | boolean } or { id, ok: false, message }
 */
const { parentPort } = require('node:worker_threads');
const { argon2id, argon2Verify } = require('hash-wasm');

parentPort.on('message', async (job) => {
  try {
    const value =
      job.op === 'hash'
        ? await argon2id({
            password: job.password,
            salt: job.salt,
            memorySize: job.memoryKiB,
            iterations: job.iterations,
            parallelism: job.parallelism,
            hashLength: 32,
            outputType: 'encoded',
          })
        : await argon2Verify({ password: job.password, hash: job.encoded });
    parentPort.postMessage({ id: job.id, ok: true, value });
  } catch (error) {
    parentPort.postMessage({ id: job.id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
