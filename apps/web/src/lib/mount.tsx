import { type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

/** Renders an app into the page's #root element. */
export function mount(app: ReactNode): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element');
  createRoot(root).render(<StrictMode>{app}</StrictMode>);
}
