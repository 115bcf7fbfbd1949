import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ParentApp } from './app';
import { SW_SCOPE, SW_URL } from './push';
import './parent.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
createRoot(root).render(
  <StrictMode>
    <ParentApp />
  </StrictMode>,
);

// Offline start and push: the worker lives at /parent/sw.js and controls /parent/ only.
if ('serviceWorker' in navigator && window.isSecureContext) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register(SW_URL, { scope: SW_SCOPE }).catch(() => undefined);
  });
}
