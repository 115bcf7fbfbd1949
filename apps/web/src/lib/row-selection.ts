import { useCallback, useMemo, useState } from 'react';

export interface RowSelection {
  /** Selected ids that still exist: a row deleted meanwhile (here or elsewhere) drops out. */
  selectedIds: readonly number[];
  isSelected: (id: number) => boolean;
  toggle: (id: number) => void;
  /** The header checkbox: selects every given row, or clears them when all are selected already. */
  toggleAll: (ids: readonly number[]) => void;
  clear: () => void;
  /** State of the header checkbox over the given rows. */
  headerState: (ids: readonly number[]) => { checked: boolean; indeterminate: boolean; selectedCount: number };
}

/** `set` with `id` added, or taken out when it was in: a new set, as React state wants. */
export function toggledIn<T>(set: ReadonlySet<T>, id: T): Set<T> {
  const next = new Set(set);
  if (!next.delete(id)) next.add(id);
  return next;
}

/**
 * Row selection of a table: it persists until a bulk delete succeeds. Kept as ids so
 * that paging, searching and refetching leave it alone.
 */
export function useRowSelection(existingIds: readonly number[]): RowSelection {
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const existing = useMemo(() => new Set(existingIds), [existingIds]);
  const selectedIds = useMemo(() => [...selected].filter((id) => existing.has(id)), [selected, existing]);
  const live = useMemo(() => new Set(selectedIds), [selectedIds]);

  const isSelected = useCallback((id: number) => live.has(id), [live]);
  const toggle = useCallback((id: number) => setSelected((current) => toggledIn(current, id)), []);
  const headerState = useCallback(
    (ids: readonly number[]) => {
      const selectedCount = ids.reduce((count, id) => count + (live.has(id) ? 1 : 0), 0);
      const checked = ids.length > 0 && selectedCount === ids.length;
      return { checked, indeterminate: selectedCount > 0 && !checked, selectedCount };
    },
    [live],
  );
  const toggleAll = useCallback(
    (ids: readonly number[]) => {
      const everySelected = ids.length > 0 && ids.every((id) => live.has(id));
      setSelected((current) => {
        const next = new Set(current);
        for (const id of ids) {
          if (everySelected) next.delete(id);
          else next.add(id);
        }
        return next;
      });
    },
    [live],
  );
  const clear = useCallback(() => setSelected(new Set()), []);

  return { selectedIds, isSelected, toggle, toggleAll, clear, headerState };
}
