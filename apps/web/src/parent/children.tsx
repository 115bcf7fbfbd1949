import type { AttendanceStatus, ChildAttendance, ParentChild } from '@tuitiondesk/contract';
import { useEffect, useState } from 'react';
import { STATUS_INK, STATUS_NAMES } from '../lib/attendance-colours';
import { errorText, parentRequest } from './api';
import { schoolDay } from './inbox-state';

export const ATTENDANCE_DAYS = 30;
const STATUSES: AttendanceStatus[] = ['present', 'absent', 'late', 'leave'];

export function MyChildren({ list }: { list: ParentChild[] }) {
  return (
    <section aria-labelledby="children-title">
      <div className="section-head">
        <h1 id="children-title">My children</h1>
      </div>
      <p className="muted">Attendance approved by the centre in the last {ATTENDANCE_DAYS} days.</p>
      {list.length === 0 && (
        <div className="empty">
          <p>No children are linked to your phone number.</p>
          <p className="muted">Ask the centre to check the phone number they have for you.</p>
        </div>
      )}
      {list.map((child) => (
        <ChildCard key={child.id} child={child} />
      ))}
    </section>
  );
}

function ChildCard({ child }: { child: ParentChild }) {
  const [attendance, setAttendance] = useState<ChildAttendance>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    const controller = new AbortController();
    parentRequest<ChildAttendance>(`/parent/children/${child.id}/attendance?days=${ATTENDANCE_DAYS}`, {
      signal: controller.signal,
    })
      .then(setAttendance)
      .catch((caught: unknown) => {
        if ((caught as Error).name !== 'AbortError') setError(errorText(caught, 'Failed to load attendance.'));
      });
    return () => controller.abort();
  }, [child.id]);

  const titleId = `child-${child.id}`;
  return (
    <article className="card child" aria-labelledby={titleId}>
      <h2 id={titleId}>
        {child.full_name} <span className="class">Class {child.class_name}</span>
      </h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!attendance && !error && <p className="muted">Loading attendance…</p>}
      {attendance && (
        <>
          <ul className="totals" aria-label={`Totals for ${child.full_name}`}>
            {STATUSES.map((status) => (
              <li key={status} className="total-item" style={{ borderTopColor: STATUS_INK[status] }}>
                <span className="total" style={{ color: STATUS_INK[status] }}>
                  {attendance.totals[status]}
                </span>
                <span>{STATUS_NAMES[status]}</span>
              </li>
            ))}
          </ul>
          {attendance.days.length === 0 ? (
            <p className="muted">No approved attendance in these {ATTENDANCE_DAYS} days.</p>
          ) : (
            <ul className="days" aria-label={`Days for ${child.full_name}`}>
              {attendance.days.map((day) => (
                <li key={day.date} className="day">
                  <time dateTime={day.date}>{schoolDay(day.date)}</time>
                  <span className="status" style={{ background: STATUS_INK[day.status] }}>
                    {STATUS_NAMES[day.status]}
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
