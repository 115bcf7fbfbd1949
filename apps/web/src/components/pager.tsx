import { TablePagination } from '@mui/material';
import { useCallback, useState } from 'react';

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
}

/** The pager under a table: rows per page, the range shown, previous and next. */
export function Pager({ paging, count, sizes, page = paging.page }: PagerProps) {
  return (
    <TablePagination
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
