import { TablePagination, type TablePaginationProps } from '@mui/material';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from '../i18n';
import { currentLanguage } from '../i18n/current';

/** Which page of a table is shown, and how many rows a page holds. */
export interface PageState {
  page: number;
  pageSize: number;
  setPage: (page: number) => void;
  /** A new page size starts again at the first page. */
  setPageSize: (size: number) => void;
}

export function usePageState(firstSize: number): PageState {
  const [page, setPage] = useState(0);
  const [pageSize, setSize] = useState(firstSize);
  const setPageSize = useCallback((size: number) => {
    setSize(size);
    setPage(0);
  }, []);
  return { page, pageSize, setPage, setPageSize };
}

/** The rows of the page shown, out of all of them. */
export function rowsOfPage<T>(rows: readonly T[], page: number, pageSize: number): T[] {
  return rows.slice(page * pageSize, page * pageSize + pageSize);
}

interface PagerProps {
  paging: PageState;
  /** How many rows there are in all; -1 while that is not known yet. */
  count: number;
  /** The page sizes offered. */
  sizes: number[];
  /** The page to show as current, when it differs from the one asked for (rows went away meanwhile). */
  page?: number;
  /** Another name for the page sizes than the pager's own. */
  labelRowsPerPage?: TablePaginationProps['labelRowsPerPage'];
  /** First and last page buttons besides previous and next. */
  showFirstButton?: boolean;
  showLastButton?: boolean;
}

/**
 * The pager's own words in the language in use: rows per page, the range shown (`1–25 of 60`, figures
 * grouped as the language groups them, in Western digits) and the buttons' names.
 */
export function usePagerTexts(): Pick<
  TablePaginationProps,
  'labelRowsPerPage' | 'labelDisplayedRows' | 'getItemAriaLabel'
> {
  const { t, i18n } = useTranslation('lists');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the figures' grouping follows the language
  return useMemo(() => {
    const figure = new Intl.NumberFormat(`${currentLanguage()}-u-nu-latn`);
    return {
      labelRowsPerPage: t('pager.rowsPerPage'),
      labelDisplayedRows: ({ from, to, count }) =>
        count === -1
          ? t('pager.displayedMore', { from: figure.format(from), to: figure.format(to) })
          : t('pager.displayed', { from: figure.format(from), to: figure.format(to), total: figure.format(count) }),
      getItemAriaLabel: (type) => t(`pager.${type}`),
    };
  }, [t, i18n.language]);
}

/** The pager under a table: rows per page, the range shown, previous and next. */
export function Pager({ paging, count, sizes, page = paging.page, labelRowsPerPage, ...buttons }: PagerProps) {
  const texts = usePagerTexts();
  return (
    <TablePagination
      {...texts}
      {...(labelRowsPerPage === undefined ? {} : { labelRowsPerPage })}
      {...buttons}
      component="div"
      count={count}
      page={page}
      onPageChange={(_event, next) => paging.setPage(next)}
      rowsPerPage={paging.pageSize}
      rowsPerPageOptions={sizes}
      onRowsPerPageChange={(event) => paging.setPageSize(Number(event.target.value))}
    />
  );
}
