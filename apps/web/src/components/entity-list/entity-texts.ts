/**
 * What a list screen calls one of its rows and many: `{ one: 'student', many: 'students' }`. The
 * scaffold says the same things the same way on every list (counts, confirmations, toasts), in these words.
 */
export interface EntityNoun {
  one: string;
  many: string;
}

const count = new Intl.NumberFormat();

export function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** `1 student`, `1,234 students`. */
export function countOf(noun: EntityNoun, n: number): string {
  return `${count.format(n)} ${n === 1 ? noun.one : noun.many}`;
}

/** The line above the list: how many there are, and while searching how many of them match. */
export function listCountText(noun: EntityNoun, shown: number, total: number, searching: boolean): string {
  return searching ? `${countOf(noun, shown)} of ${count.format(total)}` : countOf(noun, total);
}

/**
 * What the selection bar says: a select-all over many pages says it took every matching row, and rows
 * selected before a search narrowed the list are counted as hidden.
 */
export function selectionSummary(
  noun: EntityNoun,
  selectedCount: number,
  matching: { total: number; selected: number; searching: boolean },
): string {
  const hidden = selectedCount - matching.selected;
  const allMatching = matching.total > 0 && matching.selected === matching.total;
  let text: string;
  if (allMatching && matching.total > 1) {
    text = matching.searching
      ? `All ${count.format(matching.total)} matching ${noun.many} selected`
      : `All ${countOf(noun, matching.total)} selected`;
  } else {
    text = `${countOf(noun, selectedCount)} selected`;
  }
  if (hidden > 0) text += ` (${count.format(hidden)} not shown by the search)`;
  return text;
}

/** The words of the list's own controls and of its deletes, single and in bulk. */
export function entityTexts(noun: EntityNoun) {
  const One = capitalise(noun.one);
  return {
    table: capitalise(noun.many),
    add: `Add ${One}`,
    search: `Search ${noun.many}`,
    selectAll: (searchable: boolean) => (searchable ? `Select all matching ${noun.many}` : `Select all ${noun.many}`),
    fetchFailed: `Failed to fetch ${noun.many}`,
    confirmDelete: (name: string) => `Are you sure you want to delete ${name}?`,
    deleted: `${One} deleted successfully.`,
    deleteFailed: `Failed to delete ${noun.one}`,
    deleteSelected: (n: number) => `Delete Selected (${n})`,
    confirmDeleteSelected: (n: number) => `Are you sure you want to delete ${n} ${noun.one}(s)?`,
    deletedSelected: (n: number) => `Successfully deleted ${n} ${noun.one}(s).`,
    deleteSelectedFailed: `Failed to delete ${noun.many}`,
  };
}

export type EntityTexts = ReturnType<typeof entityTexts>;
