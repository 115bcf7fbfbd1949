import type { LeaveRequest, LeaveStatus, ParentChild, ParentLeaveRequests } from '@tuitiondesk/contract';
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { errorText, parentRequest } from './api';
import { schoolDay } from './inbox-state';

/** What a family reads for each state: `pending` is waiting for the centre. */
export const LEAVE_STATE_NAMES: Record<LeaveStatus, string> = {
  pending: 'Waiting',
  approved: 'Approved',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
};
const STATE_INK: Record<LeaveStatus, string> = {
  pending: '#8a5a00',
  approved: '#1b5e20',
  declined: '#b3261e',
  withdrawn: '#4f5868',
};

const REASON_MAX = 200;

/** Today on this device's calendar (the centre checks against its own). */
function localToday(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function dates(request: Pick<LeaveRequest, 'from_date' | 'to_date'>): string {
  return request.from_date === request.to_date
    ? schoolDay(request.from_date)
    : `${schoolDay(request.from_date)} to ${schoolDay(request.to_date)}`;
}

const SHORT_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });

/** "Approved by Mrs Rao on 24 Nov", "Withdrawn by you on 24 Nov", or nothing while it waits. */
export function decisionLine(request: LeaveRequest): string | undefined {
  if (request.status === 'pending' || !request.decided_at) return undefined;
  const when = SHORT_DAY.format(new Date(request.decided_at));
  if (request.status === 'withdrawn') return `Withdrawn by you on ${when}`;
  return `${LEAVE_STATE_NAMES[request.status]} by ${request.decided_by ?? 'the centre'} on ${when}`;
}

export function Leave({ list }: { list: ParentChild[] }) {
  const [requests, setRequests] = useState<LeaveRequest[]>();
  const [loadError, setLoadError] = useState<string>();

  const refresh = useCallback(async () => {
    try {
      const fresh = await parentRequest<ParentLeaveRequests>('/parent/leave-requests');
      setRequests(fresh.requests);
      setLoadError(undefined);
    } catch (caught) {
      setLoadError(errorText(caught, 'Failed to load your leave requests.'));
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return (
    <section aria-labelledby="leave-title">
      <div className="section-head">
        <h1 id="leave-title">Leave</h1>
      </div>
      <p className="muted">Tell the centre before a day your child will be away. The centre approves or declines it.</p>
      {list.length === 0 ? (
        <div className="empty">
          <p>No children are linked to your phone number.</p>
          <p className="muted">Ask the centre to check the phone number they have for you.</p>
        </div>
      ) : (
        <LeaveForm list={list} onSent={(created) => setRequests((current) => [created, ...(current ?? [])])} />
      )}
      <h2 id="requests-title">Your requests</h2>
      {loadError && (
        <p className="error" role="alert">
          {loadError}
        </p>
      )}
      {!requests && !loadError && <p className="muted">Loading…</p>}
      {requests?.length === 0 && <p className="muted">You have not asked for leave yet.</p>}
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
  const id = useId();
  const today = localToday();
  const [childId, setChildId] = useState(String(list[0]?.id ?? ''));
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState<string>();
  const [busy, setBusy] = useState(false);
  const child = list.find((candidate) => String(candidate.id) === childId) ?? list[0];

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSent(undefined);
    if (!from || !to || !reason.trim()) {
      setError('Choose the dates and write a short reason.');
      return;
    }
    if (to < from) {
      setError('The last day cannot be before the first day.');
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const created = await parentRequest<LeaveRequest>('/parent/leave-requests', {
        json: { student_id: Number(child?.id), from_date: from, to_date: to, reason: reason.trim() },
      });
      onSent(created);
      setReason('');
      setSent(`Sent. The centre will approve or decline leave for ${created.student_name} (${dates(created)}).`);
    } catch (caught) {
      setError(errorText(caught, 'Could not send the request. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card leave-form" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Ask for leave</h2>
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
          <label htmlFor={`${id}-child`}>Child</label>
          <select id={`${id}-child`} value={childId} onChange={(event) => setChildId(event.target.value)}>
            {list.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.full_name} (Class {candidate.class_name})
              </option>
            ))}
          </select>
        </>
      ) : (
        <p>
          For <strong>{child?.full_name}</strong> <span className="class">Class {child?.class_name}</span>
        </p>
      )}
      <div className="leave-dates">
        <div>
          <label htmlFor={`${id}-from`}>First day away</label>
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
          <label htmlFor={`${id}-to`}>Last day away</label>
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
      <p className="help">One day away: the same date twice.</p>
      <label htmlFor={`${id}-reason`}>Reason</label>
      <input
        id={`${id}-reason`}
        type="text"
        maxLength={REASON_MAX}
        value={reason}
        required
        aria-describedby={`${id}-reason-help`}
        placeholder="e.g. Family wedding"
        onChange={(event) => setReason(event.target.value)}
      />
      <p id={`${id}-reason-help`} className="help">
        A few words; the teacher sees them on the register.
      </p>
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Sending…' : 'Send to the centre'}
      </button>
    </form>
  );
}

function LeaveItem({ request, onChanged }: { request: LeaveRequest; onChanged: (changed: LeaveRequest) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const decision = decisionLine(request);

  async function withdraw() {
    setBusy(true);
    setError(undefined);
    try {
      onChanged(await parentRequest<LeaveRequest>(`/parent/leave-requests/${request.id}/withdraw`, { method: 'POST' }));
    } catch (caught) {
      setError(errorText(caught, 'Could not withdraw the request. Please try again.'));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  return (
    <li className="card leave-item">
      <div className="leave-top">
        <strong>{request.student_name}</strong>
        <span className="status" style={{ background: STATE_INK[request.status] }}>
          {LEAVE_STATE_NAMES[request.status]}
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
            <p>Withdraw this request? The centre will no longer expect {request.student_name} to be away.</p>
            <button type="button" className="secondary" disabled={busy} onClick={() => void withdraw()}>
              {busy ? 'Withdrawing…' : 'Yes, withdraw it'}
            </button>
            <button type="button" className="link" disabled={busy} onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        ) : (
          <button type="button" className="link" onClick={() => setConfirming(true)}>
            Withdraw
          </button>
        ))}
    </li>
  );
}
