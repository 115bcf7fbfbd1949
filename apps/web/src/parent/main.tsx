import { mount } from '../lib/mount';
import { ParentApp, ParentBoundary } from './app';
import { SW_SCOPE, SW_URL } from './push';
import './parent.css';

mount(
  <ParentBoundary>
    <ParentApp />
  </ParentBoundary>,
);

// Offline start and push: the worker lives at /parent/sw.js and controls /parent/ only.
if ('serviceWorker' in navigator && window.isSecureContext) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register(SW_URL, { scope: SW_SCOPE }).catch(() => undefined);
  });
}
