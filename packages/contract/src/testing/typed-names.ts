/**
 * The names a text's params' type reads from it (`Placeholders` in error-codes.ts and
 * activity-texts.ts), worked out the same way, for the catalogues' tests to compare with what the
 * runtime reads: `{name}`, `{day, date}`, and the selector of a plural or select, whose branches are
 * skipped.
 */
export function typedNames(text: string): string[] {
  const names: string[] = [];
  let rest = text;
  for (;;) {
    const open = rest.indexOf('{');
    if (open === -1) return [...new Set(names)];
    const close = rest.indexOf('}', open);
    const inner = rest.slice(open + 1, close);
    rest = rest.slice(close + 1);
    const comma = inner.indexOf(',');
    if (comma === -1) names.push(inner);
    else if (inner.endsWith(', date')) names.push(inner.slice(0, comma));
    else {
      names.push(inner.slice(0, comma));
      const end = rest.indexOf('}}');
      if (end === -1) return [...new Set(names)];
      rest = rest.slice(end + 2);
    }
  }
}
