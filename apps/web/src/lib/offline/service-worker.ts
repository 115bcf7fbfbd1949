/**
 * Registers the console's service worker (src/service-worker/console-sw.ts, built to /console-sw.js):
 * the console then opens without a network and keeps a teacher's rosters for marking offline.
 * Browsers allow service workers only in secure contexts (https, or this machine); the development
 * server has none.
 */
export function registerConsoleWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  const register = () => {
    navigator.serviceWorker.register('/console-sw.js', { scope: '/' }).catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
