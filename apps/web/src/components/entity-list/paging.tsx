import { useMemo } from 'react';
import { useTranslation } from '../../i18n';
import { Pager, type PageState, rowsOfPage, usePageState } from '../pager';

export const ROWS_PER_PAGE_OPTIONS = [25, 50, 100];

export interface Paging<T> {
  /** The rows of the page shown. */
  pageRows: readonly T[];
  /** The page shown. */
  page: number;
  state: PageState;
}

/**
 * Pages over the given rows, 25 to a page at first. When the rows shrink (a delete, a narrower
 * search) the page shown moves back to the last one that still has rows.
 */
export function usePaging<T>(rows: readonly T[]): Paging<T> {
  const state = usePageState(ROWS_PER_PAGE_OPTIONS[0] ?? 25);
  const lastPage = Math.max(0, Math.ceil(rows.length / state.pageSize) - 1);
  const page = Math.min(state.page, lastPage);
  const pageRows = useMemo(() => rowsOfPage(rows, page, state.pageSize), [rows, page, state.pageSize]);
  return { pageRows, page, state };
}

/** The pager under a list: Rows: 25/50/100, the range shown, and first/previous/next/last. */
export function ListPagination<T>({ paging, count }: { paging: Paging<T>; count: number }) {
  const { t } = useTranslation('lists');
  return (
    <Pager
      paging={paging.state}
      count={count}
      sizes={ROWS_PER_PAGE_OPTIONS}
      page={paging.page}
      labelRowsPerPage={t('pager.rows')}
      showFirstButton
      showLastButton
    />
  );
}
