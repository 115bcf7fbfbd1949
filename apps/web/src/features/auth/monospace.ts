/** Keys and recovery codes are read character by character: a monospaced face keeps them apart. */
export const MONOSPACE = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
