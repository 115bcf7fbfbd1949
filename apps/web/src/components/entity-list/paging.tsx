import { TablePagination } from '@mui/material';
import { useMemo } from 'react';
import { addEnglish, useTranslation } from '../../i18n';
import enLists from '../../i18n/locales/en/lists.json';
import { type PageState, rowsOfPage, usePagerTexts, usePageState } from '../pager';

addEnglish('lists', enLists);

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
  const { state } = paging;
  const { t } = useTranslation('lists');
  const texts = usePagerTexts();
  return (
    <TablePagination
      {...texts}
      component="div"
      count={count}
      page={paging.page}
      rowsPerPage={state.pageSize}
      rowsPerPageOptions={ROWS_PER_PAGE_OPTIONS}
      onPageChange={(_event, next) => state.setPage(next)}
      onRowsPerPageChange={(event) => state.setPageSize(Number(event.target.value))}
      labelRowsPerPage={t('pager.rows')}
      showFirstButton
      showLastButton
    />
  );
}
