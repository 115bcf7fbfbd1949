import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import {
  Alert,
  Box,
  Button,
  Chip,
  type ChipProps,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  Paper,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { LEAVE_STATUSES, type LeaveRequest, type LeaveStatus } from '@tuitiondesk/contract';
import { type ReactNode, useState } from 'react';
import { DataTable } from '../../components/data-table';
import { LtrText, NameText } from '../../components/data-text';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { PageSpinner } from '../../components/page-spinner';
import { useCardLayout } from '../../components/row-cards';
import { type TFunction, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/auth-provider';
import { classInWords, useClassChoices } from '../../lib/centre-classes';
import { formatDay, formatDayTime } from '../../lib/dates';
import { useToast } from '../../lib/toast';
import { LEAVE_PAGE_SIZE, type LeaveDecision, useDecideLeave, useLeaveList } from './api';

const STATE_COLOURS: Record<LeaveStatus, ChipProps['color']> = {
  pending: 'warning',
  approved: 'success',
  declined: 'error',
  withdrawn: 'default',
};

const ALL = 'all';
type StateFilter = LeaveStatus | typeof ALL;

function dates(t: TFunction<'leave'>, request: LeaveRequest): string {
  return request.from_date === request.to_date
    ? formatDay(request.from_date)
    : t('dateRange', { from: formatDay(request.from_date), to: formatDay(request.to_date) });
}

/**
 * A class as this page names it: the spec's "Class 7" in the language in use, a class the centre
 * labelled itself ("Morning batch", ADR 043) as written, never "Class Morning batch".
 */
function useClassText(): (value: string) => string {
  const { t } = useTranslation('leave');
  const { labelOf } = useClassChoices();
  return (value) => classInWords(value, labelOf(value), (name) => t('className', { name }));
}

/**
 * Leave: what parents told the centre in advance, from the parent app. Admins approve or decline a
 * waiting request (after saying what that does); teachers read the requests of their classes.
 */
export default function LeavePage() {
  const { t } = useTranslation('leave');
  const { user } = useAuth();
  const isAdmin = user?.role === 'admin';
  const { showToast } = useToast();
  const [state, setState] = useState<StateFilter>('pending');
  const [deciding, setDeciding] = useState<{ request: LeaveRequest; decision: LeaveDecision }>();
  const list = useLeaveList(state === ALL ? undefined : state);
  // Below the medium breakpoint, as every list: one card a request, the actions in reach, instead of a
  // table scrolled sideways.
  const narrow = useCardLayout();
  const decide = useDecideLeave();
  const classText = useClassText();

  const confirm = () => {
    if (!deciding) return;
    const { request, decision } = deciding;
    decide.mutate(
      { id: request.id, decision },
      {
        onSuccess: () => {
          setDeciding(undefined);
          showToast(t(decision === 'approve' ? 'approved' : 'declined', { name: request.student_name }), 'success');
        },
        onError: (error) => {
          setDeciding(undefined);
          showToast(errorText(error, t('saveFailed')), 'error');
        },
      },
    );
  };

  const requests = list.data?.requests ?? [];
  let content: ReactNode;
  if (list.isPending) content = <PageSpinner />;
  // A refetch that fails keeps the requests shown; only a list never loaded shows the failure.
  else if (list.isError && list.data === undefined)
    content = <Alert severity="error">{errorText(list.error, t('loadFailed'))}</Alert>;
  else if (requests.length === 0)
    content = (
      <Paper variant="outlined">
        <EmptyState
          icon={<EventAvailableIcon />}
          title={state === 'pending' ? t('emptyWaiting') : t('emptyAny')}
          text={t('emptyText')}
        />
      </Paper>
    );
  else if (narrow)
    content = (
      <Stack component="ul" aria-label={t('list')} spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {requests.map((request) => (
          <Paper component="li" key={request.id} variant="outlined" sx={{ p: 2 }}>
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
              <Box sx={{ minWidth: 0 }}>
                <Typography component="div" sx={{ fontWeight: 600 }}>
                  <NameText title={request.student_name}>{request.student_name}</NameText>
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  <LtrText>{request.student_unique_id}</LtrText> · {classText(request.class_name)}
                </Typography>
              </Box>
              <StateChip request={request} />
            </Stack>
            <Typography sx={{ mt: 1 }}>
              {dates(t, request)} ({t('days', { count: request.days })})
            </Typography>
            <Typography variant="body2">{request.reason}</Typography>
            <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
              {t('asked', { when: formatDayTime(request.requested_at) })}
              {decisionNote(t, request) && ` · ${decisionNote(t, request)}`}
            </Typography>
            {isAdmin && request.status === 'pending' && (
              <Box sx={{ mt: 1.5 }}>
                <DecisionButtons request={request} onDecide={(decision) => setDeciding({ request, decision })} />
              </Box>
            )}
          </Paper>
        ))}
      </Stack>
    );
  else
    content = (
      <>
        <DataTable
          label={t('list')}
          region={t('region')}
          outlined
          labels={[
            t('columns.student'),
            t('columns.class'),
            t('columns.dates'),
            t('columns.reason'),
            t('columns.state'),
            t('columns.asked'),
            ...(isAdmin ? [t('columns.actions')] : []),
          ]}
          sx={{ minWidth: 860 }}
        >
          {requests.map((request) => (
            <TableRow key={request.id} hover>
              <TableCell>
                <Typography variant="body2" component="div" sx={{ fontWeight: 600 }}>
                  <NameText title={request.student_name}>{request.student_name}</NameText>
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  <LtrText>{request.student_unique_id}</LtrText>
                </Typography>
              </TableCell>
              <TableCell>{classText(request.class_name)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {dates(t, request)}
                <Typography variant="caption" color="text.secondary" component="div">
                  {t('days', { count: request.days })}
                </Typography>
              </TableCell>
              <TableCell sx={{ maxWidth: 260 }}>{request.reason}</TableCell>
              <TableCell>
                <StateChip request={request} />
                {decisionNote(t, request) && (
                  <Typography variant="caption" color="text.secondary" component="div">
                    {decisionNote(t, request)}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDayTime(request.requested_at)}</TableCell>
              {isAdmin && (
                <TableCell>
                  {request.status === 'pending' ? (
                    <DecisionButtons request={request} onDecide={(decision) => setDeciding({ request, decision })} />
                  ) : (
                    '-'
                  )}
                </TableCell>
              )}
            </TableRow>
          ))}
        </DataTable>
        {(list.data?.total ?? 0) > requests.length && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('showingNewest', { size: LEAVE_PAGE_SIZE, total: list.data?.total })}
          </Typography>
        )}
      </>
    );

  return (
    <Box>
      <PageHeader
        title={t('title')}
        subtitle={isAdmin ? t('subtitleAdmin') : t('subtitleTeacher')}
        action={
          <TextField
            select
            size="small"
            label={t('stateFilter')}
            value={state}
            onChange={(event) => setState(event.target.value as StateFilter)}
            sx={{ minWidth: 180 }}
          >
            {LEAVE_STATUSES.map((status) => (
              <MenuItem key={status} value={status}>
                {t(`states.${status}`)}
              </MenuItem>
            ))}
            <MenuItem value={ALL}>{t('all')}</MenuItem>
          </TextField>
        }
      />
      {content}
      <DecisionDialog
        deciding={deciding}
        busy={decide.isPending}
        onCancel={() => setDeciding(undefined)}
        onConfirm={confirm}
      />
    </Box>
  );
}

/** "by Mrs Rao, 24 Nov 2026" for a decided request; undefined while it waits. */
function decisionNote(t: TFunction<'leave'>, request: LeaveRequest): string | undefined {
  if (request.status === 'pending' || !request.decided_at) return undefined;
  const date = formatDay(request.decided_at);
  return request.status === 'withdrawn'
    ? t('withdrawnByParent', { date })
    : t('decidedBy', { name: request.decided_by, date });
}

function StateChip({ request }: { request: LeaveRequest }) {
  const { t } = useTranslation('leave');
  return <Chip size="small" color={STATE_COLOURS[request.status]} label={t(`states.${request.status}`)} />;
}

function DecisionButtons({
  request,
  onDecide,
}: {
  request: LeaveRequest;
  onDecide: (decision: LeaveDecision) => void;
}) {
  const { t } = useTranslation('leave');
  return (
    <Stack direction="row" spacing={1}>
      <Button
        size="small"
        variant="contained"
        color="success"
        onClick={() => onDecide('approve')}
        aria-label={t('approveFor', { name: request.student_name })}
      >
        {t('approve')}
      </Button>
      <Button
        size="small"
        variant="outlined"
        color="error"
        onClick={() => onDecide('decline')}
        aria-label={t('declineFor', { name: request.student_name })}
      >
        {t('decline')}
      </Button>
    </Stack>
  );
}

function DecisionDialog({
  deciding,
  busy,
  onCancel,
  onConfirm,
}: {
  deciding: { request: LeaveRequest; decision: LeaveDecision } | undefined;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation('leave');
  const classText = useClassText();
  const request = deciding?.request;
  const approving = deciding?.decision === 'approve';
  return (
    <Dialog open={deciding !== undefined} onClose={busy ? undefined : onCancel} aria-labelledby="leave-decision-title">
      {request && (
        <>
          <DialogTitle id="leave-decision-title">
            {t(approving ? 'dialog.approveTitle' : 'dialog.declineTitle', { name: request.student_name })}
          </DialogTitle>
          <DialogContent>
            <DialogContentText>
              {approving
                ? t('dialog.approveText', {
                    name: request.student_name,
                    className: classText(request.class_name),
                    dates: dates(t, request),
                    reason: request.reason,
                  })
                : t('dialog.declineText', { name: request.student_name, dates: dates(t, request) })}
            </DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={onCancel} disabled={busy}>
              {t('dialog.cancel')}
            </Button>
            <Button variant="contained" color={approving ? 'success' : 'error'} onClick={onConfirm} disabled={busy}>
              {approving ? t('dialog.approveLeave') : t('dialog.declineLeave')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
