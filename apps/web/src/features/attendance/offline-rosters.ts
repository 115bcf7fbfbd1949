import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { markingScopeQuery, rosterQuery } from './api';

/** A teacher's rosters are read again at most this often in the background. */
const FRESH_MS = 5 * 60_000;

/** Every day from `first` to `last` (yyyy-mm-dd), in order. */
export function daysFrom(first: string, last: string): string[] {
  const days: string[] = [];
  for (let day = dayjs(first); !day.isAfter(dayjs(last), 'day'); day = day.add(1, 'day')) {
    days.push(day.format('YYYY-MM-DD'));
  }
  return days;
}

/**
 * A teacher's registers for every day they may mark, read while the network is there: the
 * console's service worker keeps the answers, so the registers open when the classroom has no
 * signal. Only a teacher's own classes (a centre letting every teacher mark every class would make it
 * every class of every day: those are read when opened, as for admins).
 */
export function useOfflineRosters(enabled: boolean): void {
  const client = useQueryClient();
  const scope = useQuery({ ...markingScopeQuery(), enabled });
  const data = enabled ? scope.data : undefined;
  useEffect(() => {
    if (!data?.restricted || data.any_class || data.classes.length === 0) return;
    const days = daysFrom(data.earliest_date ?? data.today, data.today);
    const readAll = () => {
      if (!navigator.onLine) return;
      for (const className of data.classes) {
        for (const date of days) {
          void client.prefetchQuery({ ...rosterQuery(className, date), staleTime: FRESH_MS });
        }
      }
    };
    readAll();
    window.addEventListener('online', readAll);
    return () => window.removeEventListener('online', readAll);
  }, [client, data]);
}
