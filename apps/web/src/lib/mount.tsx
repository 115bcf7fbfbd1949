import { type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { STARTED_EVENT } from './started-event';

/** Renders an app into the page's #root element, and tells the page's guard that the app's code runs. */
export function mount(app: ReactNode): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element');
  document.dispatchEvent(new Event(STARTED_EVENT));
  createRoot(root).render(<StrictMode>{app}</StrictMode>);
}
