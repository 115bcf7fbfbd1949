import type { TFunction } from '../../i18n';
import { currentLanguage } from '../../i18n/current';

/**
 * What a list screen calls its rows, as texts of its own namespace under `entity.` (each language says
 * "1 student", "Add Student" in its own grammar, which a noun put into a sentence cannot):
 * `table`, `add`, `search`, `selectAll`, `selectAllMatching`, `fetchFailed`, `deleted`, `deleteFailed`,
 * `deleteSelectedFailed`, `confirmDeleteSelected` and `deletedSelected` (`{{n}}`), `count_one`/`_other`,
 * `selected_one`/`_other`, `allSelected`, `allMatchingSelected` (`{{number}}`, the figure grouped).
 * The scaffold's own words (`Delete Selected (3)`, `… of 1,200`) are in the `lists` namespace.
 */
export type EntityT = TFunction<readonly [EntityNamespace, 'lists']>;

/**
 * The namespace whose English types a list's `entity.` keys: every list's namespace has the same ones
 * (the teachers' too, a test's made-up list), so the students' stand for them all.
 */
export type EntityNamespace = 'students';

/** A count as the language groups it, in Western digits: `1,234`. */
export function figure(n: number): string {
  return new Intl.NumberFormat(`${currentLanguage()}-u-nu-latn`).format(n);
}

/** `1 student`, `1,234 students`. */
export function countOf(t: EntityT, n: number): string {
  return t('entity.count', { count: n, number: figure(n) });
}

/** The line above the list: how many there are, and while searching how many of them match. */
export function listCountText(t: EntityT, shown: number, total: number, searching: boolean): string {
  return searching ? t('lists:shownOf', { shown: countOf(t, shown), total: figure(total) }) : countOf(t, total);
}

/**
 * What the selection bar says: a select-all over many pages says it took every matching row, and rows
 * selected before a search narrowed the list are counted as hidden.
 */
export function selectionSummary(
  t: EntityT,
  selectedCount: number,
  matching: { total: number; selected: number; searching: boolean },
): string {
  const hidden = selectedCount - matching.selected;
  const allMatching = matching.total > 0 && matching.selected === matching.total;
  let text: string;
  if (allMatching && matching.total > 1) {
    text = t(matching.searching ? 'entity.allMatchingSelected' : 'entity.allSelected', {
      number: figure(matching.total),
    });
  } else {
    text = t('entity.selected', { count: selectedCount, number: figure(selectedCount) });
  }
  return hidden > 0 ? t('lists:withHidden', { selected: text, hidden: figure(hidden) }) : text;
}

/** The words of the list's own controls and of its deletes, single and in bulk. */
export function entityTexts(t: EntityT) {
  return {
    table: t('entity.table'),
    add: t('entity.add'),
    search: t('entity.search'),
    selectAll: (searchable: boolean) => t(searchable ? 'entity.selectAllMatching' : 'entity.selectAll'),
    fetchFailed: t('entity.fetchFailed'),
    confirmDelete: (name: string) => t('lists:confirmDelete', { name }),
    deleted: t('entity.deleted'),
    deleteFailed: t('entity.deleteFailed'),
    deleteSelected: (n: number) => t('lists:deleteSelected', { n }),
    confirmDeleteSelected: (n: number) => t('entity.confirmDeleteSelected', { n }),
    deletedSelected: (n: number) => t('entity.deletedSelected', { n }),
    deleteSelectedFailed: t('entity.deleteSelectedFailed'),
  };
}

export type EntityTexts = ReturnType<typeof entityTexts>;
