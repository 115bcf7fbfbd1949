import type { AttendanceStatus, ChildAttendance, ParentChild } from '@tuitiondesk/contract';
import { useEffect, useState } from 'react';
import { STATUS_INK } from '../lib/attendance-colours';
import { errorText, parentRequest } from './api';
import { classWords } from './class-words';
import { useParentTranslation } from './i18n';
import { schoolDay } from './inbox-state';

export const ATTENDANCE_DAYS = 30;
const STATUSES: AttendanceStatus[] = ['present', 'absent', 'late', 'leave'];

export function MyChildren({ list }: { list: ParentChild[] }) {
  const { t } = useParentTranslation();
  return (
    <section aria-labelledby="children-title">
      <div className="section-head">
        <h1 id="children-title">{t('children.title')}</h1>
      </div>
      <p className="muted">{t('children.approved', { days: ATTENDANCE_DAYS })}</p>
      {list.length === 0 && (
        <div className="empty">
          <p>{t('children.none')}</p>
          <p className="muted">{t('children.noneHelp')}</p>
        </div>
      )}
      {list.map((child) => (
        <ChildCard key={child.id} child={child} />
      ))}
    </section>
  );
}

function ChildCard({ child }: { child: ParentChild }) {
  const { t } = useParentTranslation();
  const [attendance, setAttendance] = useState<ChildAttendance>();
  // The failure itself: its text follows the language shown.
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    const controller = new AbortController();
    parentRequest<ChildAttendance>(`/parent/children/${child.id}/attendance?days=${ATTENDANCE_DAYS}`, {
      signal: controller.signal,
    })
      .then(setAttendance)
      .catch((caught: unknown) => {
        if ((caught as Error).name !== 'AbortError') setError(caught);
      });
    return () => controller.abort();
  }, [child.id]);

  const titleId = `child-${child.id}`;
  return (
    <article className="card child" aria-labelledby={titleId}>
      <h2 id={titleId}>
        {child.full_name} <span className="class">{classWords(child.class_name)}</span>
      </h2>
      {error !== undefined && (
        <p className="error" role="alert">
          {errorText(error, t('children.loadFailed'))}
        </p>
      )}
      {!attendance && error === undefined && <p className="muted">{t('children.loading')}</p>}
      {attendance && (
        <>
          <ul className="totals" aria-label={t('children.totals', { name: child.full_name })}>
            {STATUSES.map((status) => (
              <li key={status} className="total-item" style={{ borderTopColor: STATUS_INK[status] }}>
                <span className="total" style={{ color: STATUS_INK[status] }}>
                  {attendance.totals[status]}
                </span>
                <span>{t(`status.${status}`)}</span>
              </li>
            ))}
          </ul>
          {attendance.days.length === 0 ? (
            <p className="muted">{t('children.noDays', { days: ATTENDANCE_DAYS })}</p>
          ) : (
            <ul className="days" aria-label={t('children.days', { name: child.full_name })}>
              {attendance.days.map((day) => (
                <li key={day.date} className="day">
                  <time dateTime={day.date}>{schoolDay(day.date)}</time>
                  <span className="status" style={{ background: STATUS_INK[day.status] }}>
                    {t(`status.${day.status}`)}
                  </span>
                  {day.remarks && <span className="remarks">{day.remarks}</span>}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </article>
  );
}
