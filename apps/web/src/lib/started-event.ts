/**
 * The event the app sends on the document once its code runs, for the page's guard of its first
 * scripts (build/load-guard.js, ADR 030): from then on the guard stays quiet and steps aside.
 */
export const STARTED_EVENT = 'tuitiondesk:started';
