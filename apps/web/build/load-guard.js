// The page's guard for its first scripts (ADR 030): written into each index.html by load-guard.ts, with
// GUARD_CONFIG replaced by the page's settings and texts. A plain script, run before any module: when
// the page's scripts cannot be fetched it says so, reloads by itself after 1, 2 and 4 seconds (counted
// for the tab, so it never loops), then offers Retry. It steps aside, unseen, once the app starts.
((config) => {
  let started = false;
  let failed = false;
  let waitTimer;
  let retryTimer;
  const own = (object, key) => Object.hasOwn(object, key);

  // Automatic reloads done so far, kept as `count:time` and forgotten after a while. -1: no storage.
  const attempts = () => {
    try {
      const [count, time] = String(sessionStorage.getItem(config.key) || '').split(':');
      return Date.now() - Number(time) < config.forgetMs ? Number(count) || 0 : 0;
    } catch {
      return -1;
    }
  };
  const keepAttempts = (count) => {
    try {
      if (count > 0) sessionStorage.setItem(config.key, `${count}:${Date.now()}`);
      else sessionStorage.removeItem(config.key);
    } catch {
      // no storage: nothing kept, nothing to forget
    }
  };

  // The language the app would show: the one it keeps on this device, else the browser's, else English.
  const language = () => {
    try {
      let kept = localStorage.getItem(config.languageKey);
      if (kept && config.languageField) kept = JSON.parse(kept)?.[config.languageField];
      if (typeof kept === 'string' && own(config.texts, kept)) return kept;
    } catch {
      // no storage, or not what the app wrote: the browser's language
    }
    const tags = navigator.languages?.length ? navigator.languages : [navigator.language];
    for (const tag of tags) {
      const main = String(tag || '')
        .toLowerCase()
        .split('-')[0];
      if (own(config.texts, main)) return main;
    }
    return 'en';
  };

  const box = () => document.getElementById('load-failure');

  const show = (retrying) => {
    const element = box();
    if (!element) {
      // The body is not parsed yet.
      document.addEventListener('DOMContentLoaded', () => started || show(retrying));
      return;
    }
    const lang = language();
    const texts = config.texts[lang];
    element.lang = lang;
    element.dir = config.rtl.includes(lang) ? 'rtl' : 'ltr';
    element.querySelector('[data-title]').textContent = texts.title;
    element.querySelector('[data-advice]').textContent = retrying ? texts.retrying : texts.advice;
    const button = element.querySelector('button');
    button.textContent = texts.retry;
    button.onclick = () => {
      keepAttempts(0);
      location.reload();
    };
    element.hidden = false;
  };

  const fail = () => {
    if (started || failed) return;
    failed = true;
    clearTimeout(waitTimer);
    const count = attempts();
    const automatic = count >= 0 && count < config.delaysMs.length;
    show(automatic);
    if (!automatic) return;
    retryTimer = setTimeout(() => {
      if (started) return;
      keepAttempts(count + 1);
      location.reload();
    }, config.delaysMs[count]);
  };

  // A script the page starts could not be fetched: the entry, or a module it imports (the browser
  // reports both on the entry's script element). A failed modulepreload is a failure only if the app
  // has still not started a little after the page has loaded.
  const failUnlessStarted = () => setTimeout(fail, config.preloadGraceMs);
  const onError = (event) => {
    const target = event.target;
    if (!target || target === window || started) return;
    if (target.tagName === 'SCRIPT') fail();
    else if (target.tagName === 'LINK' && String(target.rel).toLowerCase() === 'modulepreload') {
      if (document.readyState === 'complete') failUnlessStarted();
      else window.addEventListener('load', failUnlessStarted);
    }
  };
  window.addEventListener('error', onError, true);

  // The app calls in when its code runs (src/lib/mount.tsx): no message, no reload, nothing kept.
  document.addEventListener(config.startedEvent, () => {
    started = true;
    clearTimeout(waitTimer);
    clearTimeout(retryTimer);
    window.removeEventListener('error', onError, true);
    keepAttempts(0);
    box()?.remove();
  });

  // Nothing failed, yet nothing started: a request that hangs, or code that broke before it started.
  waitTimer = setTimeout(fail, config.timeoutMs);
})(GUARD_CONFIG);
