/** What the parent app reads from the address bar's fragment (never sent to the server). */
export interface Fragment {
  /** From the sign-in link `parentSignInLink` builds: `#phone=…&code=…`. */
  phone?: string;
  code?: string;
  /** From a notification: `#message=<id>`. */
  messageId?: number;
}

export function parseFragment(hash: string): Fragment {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const result: Fragment = {};
  // A `+` typed by hand into a link arrives as a space.
  const phone = params.get('phone')?.replace(/^ /, '+').trim();
  const code = params.get('code')?.trim();
  if (phone && code) {
    result.phone = phone;
    result.code = code;
  }
  const message = Number(params.get('message'));
  if (Number.isInteger(message) && message > 0) result.messageId = message;
  return result;
}

/** Removes the fragment (the access code!) from the address bar and the history entry. */
export function clearFragment(): void {
  if (!window.location.hash) return;
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
}
