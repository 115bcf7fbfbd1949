import type { LeaveRequest, LeaveStatus, ParentChild, ParentLeaveRequests } from '@tuitiondesk/contract';
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { errorText, parentRequest } from './api';
import { centreToday } from './centre-clock';
import { classWords } from './class-words';
import { englishText, i18n, useParentTranslation } from './i18n';
import { schoolDay, shortDay } from './inbox-state';
import { useAction } from './use-action';

/**
 * What a family reads for each state (catalogue `leave.<state>`): `pending` is waiting for the centre.
 * Here in English, as tests compare them.
 */
const LEAVE_STATES: readonly LeaveStatus[] = ['pending', 'approved', 'declined', 'withdrawn'];
export const LEAVE_STATE_NAMES = Object.fromEntries(
  LEAVE_STATES.map((state) => [state, englishText(`leave.${state}`)]),
) as Record<LeaveStatus, string>;
const STATE_INK: Record<LeaveStatus, string> = {
  pending: '#8a5a00',
  approved: '#1b5e20',
  declined: '#b3261e',
  withdrawn: '#4f5868',
};

const REASON_MAX = 200;

function dates(request: Pick<LeaveRequest, 'from_date' | 'to_date'>): string {
  return request.from_date === request.to_date
    ? schoolDay(request.from_date)
    : i18n.t('leave.range', { from: schoolDay(request.from_date), to: schoolDay(request.to_date) });
}

/** "Approved by Mrs Rao on 24 Nov", "Withdrawn by you on 24 Nov", or nothing while it waits. */
export function decisionLine(request: LeaveRequest): string | undefined {
  if (request.status === 'pending' || !request.decided_at) return undefined;
  const when = shortDay(request.decided_at);
  if (request.status === 'withdrawn') return i18n.t('leave.withdrawnBy', { when });
  const name = request.decided_by ?? i18n.t('leave.theCentre');
  return request.status === 'approved'
    ? i18n.t('leave.approvedBy', { name, when })
    : i18n.t('leave.declinedBy', { name, when });
}

export function Leave({ list }: { list: ParentChild[] }) {
  const { t } = useParentTranslation();
  const [requests, setRequests] = useState<LeaveRequest[]>();
  // The failure itself: its text follows the language shown.
  const [loadError, setLoadError] = useState<unknown>();

  const refresh = useCallback(async () => {
    try {
      const fresh = await parentRequest<ParentLeaveRequests>('/parent/leave-requests');
      setRequests(fresh.requests);
      setLoadError(undefined);
    } catch (caught) {
      setLoadError(caught);
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return (
    <section aria-labelledby="leave-title">
      <div className="section-head">
        <h1 id="leave-title">{t('leave.title')}</h1>
      </div>
      <p className="muted">{t('leave.intro')}</p>
      {list.length === 0 ? (
        <div className="empty">
          <p>{t('children.none')}</p>
          <p className="muted">{t('children.noneHelp')}</p>
        </div>
      ) : (
        <LeaveForm list={list} onSent={(created) => setRequests((current) => [created, ...(current ?? [])])} />
      )}
      <h2 id="requests-title">{t('leave.requests')}</h2>
      {loadError !== undefined && (
        <p className="error" role="alert">
          {errorText(loadError, t('leave.loadFailed'))}
        </p>
      )}
      {!requests && loadError === undefined && <p className="muted">{t('leave.loading')}</p>}
      {requests?.length === 0 && <p className="muted">{t('leave.noRequests')}</p>}
      {requests && requests.length > 0 && (
        <ul className="leave-list" aria-labelledby="requests-title">
          {requests.map((request) => (
            <LeaveItem
              key={request.id}
              request={request}
              onChanged={(changed) =>
                setRequests((current) => current?.map((item) => (item.id === changed.id ? changed : item)))
              }
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function LeaveForm({ list, onSent }: { list: ParentChild[]; onSent: (created: LeaveRequest) => void }) {
  const { t } = useParentTranslation();
  const id = useId();
  // The centre's today, not the phone's: the first day the centre takes a request for.
  const today = centreToday();
  const [childId, setChildId] = useState(String(list[0]?.id ?? ''));
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const [reason, setReason] = useState('');
  const [sent, setSent] = useState<string>();
  const { busy, error, setError, run } = useAction();
  const child = list.find((candidate) => String(candidate.id) === childId) ?? list[0];

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSent(undefined);
    if (!from || !to || !reason.trim()) {
      setError(t('leave.datesAndReason'));
      return;
    }
    if (to < from) {
      setError(t('leave.lastBeforeFirst'));
      return;
    }
    await run(
      async () => {
        const created = await parentRequest<LeaveRequest>('/parent/leave-requests', {
          json: { student_id: Number(child?.id), from_date: from, to_date: to, reason: reason.trim() },
        });
        onSent(created);
        setReason('');
        setSent(t('leave.sent', { name: created.student_name, dates: dates(created) }));
      },
      () => t('leave.sendFailed'),
    );
  }

  return (
    <form className="card leave-form" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('leave.ask')}</h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {sent && (
        <p className="notice" role="status">
          {sent}
        </p>
      )}
      {list.length > 1 ? (
        <>
          <label htmlFor={`${id}-child`}>{t('leave.child')}</label>
          <select id={`${id}-child`} value={childId} onChange={(event) => setChildId(event.target.value)}>
            {list.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {t('leave.childOption', { name: candidate.full_name, className: classWords(candidate.class_name) })}
              </option>
            ))}
          </select>
        </>
      ) : (
        <p>
          {t('leave.for')} <strong>{child?.full_name}</strong>{' '}
          <span className="class">{child ? classWords(child.class_name) : ''}</span>
        </p>
      )}
      <div className="leave-dates">
        <div>
          <label htmlFor={`${id}-from`}>{t('leave.from')}</label>
          <input
            id={`${id}-from`}
            type="date"
            min={today}
            value={from}
            required
            onChange={(event) => {
              setFrom(event.target.value);
              if (to < event.target.value) setTo(event.target.value);
            }}
          />
        </div>
        <div>
          <label htmlFor={`${id}-to`}>{t('leave.to')}</label>
          <input
            id={`${id}-to`}
            type="date"
            min={from || today}
            value={to}
            required
            onChange={(event) => setTo(event.target.value)}
          />
        </div>
      </div>
      <p className="help">{t('leave.oneDay')}</p>
      <label htmlFor={`${id}-reason`}>{t('leave.reason')}</label>
      <input
        id={`${id}-reason`}
        type="text"
        maxLength={REASON_MAX}
        value={reason}
        required
        aria-describedby={`${id}-reason-help`}
        placeholder={t('leave.reasonExample')}
        onChange={(event) => setReason(event.target.value)}
      />
      <p id={`${id}-reason-help`} className="help">
        {t('leave.reasonHelp')}
      </p>
      <button type="submit" className="primary" disabled={busy}>
        {busy ? t('leave.sending') : t('leave.send')}
      </button>
    </form>
  );
}

function LeaveItem({ request, onChanged }: { request: LeaveRequest; onChanged: (changed: LeaveRequest) => void }) {
  const { t } = useParentTranslation();
  const [confirming, setConfirming] = useState(false);
  const { busy, error, run } = useAction();
  const decision = decisionLine(request);

  async function withdraw() {
    await run(
      async () =>
        onChanged(
          await parentRequest<LeaveRequest>(`/parent/leave-requests/${request.id}/withdraw`, { method: 'POST' }),
        ),
      () => t('leave.withdrawFailed'),
      () => setConfirming(false),
    );
  }

  return (
    <li className="card leave-item">
      <div className="leave-top">
        <strong>{request.student_name}</strong>
        <span className="status" style={{ background: STATE_INK[request.status] }}>
          {t(`leave.${request.status}`)}
        </span>
      </div>
      <p className="leave-when">{dates(request)}</p>
      <p className="remarks">{request.reason}</p>
      {decision && <p className="help">{decision}</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {request.status === 'pending' &&
        (confirming ? (
          <div className="leave-confirm">
            <p>{t('leave.confirmWithdraw', { name: request.student_name })}</p>
            <button type="button" className="secondary" disabled={busy} onClick={() => void withdraw()}>
              {busy ? t('leave.withdrawing') : t('leave.yesWithdraw')}
            </button>
            <button type="button" className="link" disabled={busy} onClick={() => setConfirming(false)}>
              {t('leave.keep')}
            </button>
          </div>
        ) : (
          <button type="button" className="link" onClick={() => setConfirming(true)}>
            {t('leave.withdraw')}
          </button>
        ))}
    </li>
  );
}
