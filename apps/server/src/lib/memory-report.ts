/**
 * Where the server's memory goes, in MB: the process's resident set, V8's heap (JavaScript objects,
 * strings), the memory outside it (`external`: mostly the embedded database's WebAssembly heap, which
 * holds PostgreSQL's shared buffers and working memory and never shrinks; ArrayBuffers and Buffers
 * are part of it), and the two caches the server keeps by size (the embedded database's read cache,
 * the kept answers).
 */
export function memoryReport(caches: { readCacheBytes: number; keptAnswerBytes: number }) {
  const usage = process.memoryUsage();
  const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
  return {
    rss_mb: mb(usage.rss),
    js_heap_used_mb: mb(usage.heapUsed),
    js_heap_total_mb: mb(usage.heapTotal),
    array_buffers_mb: mb(usage.arrayBuffers),
    external_mb: mb(usage.external),
    // Strings of Latin-1 text: about their length in bytes, counted by each cache as it keeps them.
    read_cache_mb: mb(caches.readCacheBytes),
    kept_answers_mb: mb(caches.keptAnswerBytes),
  };
}
