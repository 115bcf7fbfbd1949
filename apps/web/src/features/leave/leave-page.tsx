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
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { PageSpinner } from '../../components/page-spinner';
import { useCardLayout } from '../../components/row-cards';
import { errorText } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/auth-provider';
import { formatDay, formatDayTime } from '../../lib/dates';
import { useToast } from '../../lib/toast';
import { LEAVE_PAGE_SIZE, type LeaveDecision, useDecideLeave, useLeaveList } from './api';

/** The states as staff read them; `pending` is a request waiting for an admin. */
export const LEAVE_STATE_LABELS: Record<LeaveStatus, string> = {
  pending: 'Waiting',
  approved: 'Approved',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
};
const STATE_COLOURS: Record<LeaveStatus, ChipProps['color']> = {
  pending: 'warning',
  approved: 'success',
  declined: 'error',
  withdrawn: 'default',
};

const ALL = 'all';
type StateFilter = LeaveStatus | typeof ALL;

function dates(request: LeaveRequest): string {
  return request.from_date === request.to_date
    ? formatDay(request.from_date)
    : `${formatDay(request.from_date)} – ${formatDay(request.to_date)}`;
}

/**
 * Leave: what parents told the centre in advance, from the parent app. Admins approve or decline a
 * waiting request (after saying what that does); teachers read the requests of their classes.
 */
export default function LeavePage() {
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

  const confirm = () => {
    if (!deciding) return;
    const { request, decision } = deciding;
    decide.mutate(
      { id: request.id, decision },
      {
        onSuccess: () => {
          setDeciding(undefined);
          showToast(
            `Leave for ${request.student_name} ${decision === 'approve' ? 'approved' : 'declined'}.`,
            'success',
          );
        },
        onError: (error) => {
          setDeciding(undefined);
          showToast(errorText(error, 'Failed to save the decision'), 'error');
        },
      },
    );
  };

  const requests = list.data?.requests ?? [];
  let content: ReactNode;
  if (list.isPending) content = <PageSpinner />;
  // A refetch that fails keeps the requests shown; only a list never loaded shows the failure.
  else if (list.isError && list.data === undefined)
    content = <Alert severity="error">{errorText(list.error, 'Failed to load leave requests')}</Alert>;
  else if (requests.length === 0)
    content = (
      <Paper variant="outlined">
        <EmptyState
          icon={<EventAvailableIcon />}
          title={state === 'pending' ? 'No leave waiting' : 'No leave requests'}
          text="Parents tell the centre about days away in the parent app; their requests show here."
        />
      </Paper>
    );
  else if (narrow)
    content = (
      <Stack component="ul" aria-label="Leave requests" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {requests.map((request) => (
          <Paper component="li" key={request.id} variant="outlined" sx={{ p: 2 }}>
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
              <Box>
                <Typography sx={{ fontWeight: 600 }}>{request.student_name}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {request.student_unique_id} · Class {request.class_name}
                </Typography>
              </Box>
              <StateChip request={request} />
            </Stack>
            <Typography sx={{ mt: 1 }}>
              {dates(request)} ({request.days === 1 ? '1 day' : `${request.days} days`})
            </Typography>
            <Typography variant="body2">{request.reason}</Typography>
            <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
              Asked {formatDayTime(request.requested_at)}
              {decisionNote(request) && ` · ${decisionNote(request)}`}
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
          label="Leave requests"
          region="Leave requests, scrolls sideways"
          outlined
          labels={['Student', 'Class', 'Dates', 'Reason', 'State', 'Asked', ...(isAdmin ? ['Actions'] : [])]}
          sx={{ minWidth: 860 }}
        >
          {requests.map((request) => (
            <TableRow key={request.id} hover>
              <TableCell>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {request.student_name}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {request.student_unique_id}
                </Typography>
              </TableCell>
              <TableCell>Class {request.class_name}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {dates(request)}
                <Typography variant="caption" color="text.secondary" component="div">
                  {request.days === 1 ? '1 day' : `${request.days} days`}
                </Typography>
              </TableCell>
              <TableCell sx={{ maxWidth: 260 }}>{request.reason}</TableCell>
              <TableCell>
                <StateChip request={request} />
                {decisionNote(request) && (
                  <Typography variant="caption" color="text.secondary" component="div">
                    {decisionNote(request)}
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
            Showing the newest {LEAVE_PAGE_SIZE} of {list.data?.total}.
          </Typography>
        )}
      </>
    );

  return (
    <Box>
      <PageHeader
        title="Leave"
        subtitle={
          isAdmin
            ? 'Days away that parents told the centre about in advance. Approved leave shows on the register as Leave with the reason, and no absence alert is sent for it.'
            : 'Days away that parents told the centre about, for your classes. Admins approve or decline them.'
        }
        action={
          <TextField
            select
            size="small"
            label="State"
            value={state}
            onChange={(event) => setState(event.target.value as StateFilter)}
            sx={{ minWidth: 180 }}
          >
            {LEAVE_STATUSES.map((status) => (
              <MenuItem key={status} value={status}>
                {LEAVE_STATE_LABELS[status]}
              </MenuItem>
            ))}
            <MenuItem value={ALL}>All</MenuItem>
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
function decisionNote(request: LeaveRequest): string | undefined {
  if (request.status === 'pending' || !request.decided_at) return undefined;
  const who = request.status === 'withdrawn' ? 'the parent' : request.decided_by;
  return `by ${who}, ${formatDay(request.decided_at)}`;
}

function StateChip({ request }: { request: LeaveRequest }) {
  return <Chip size="small" color={STATE_COLOURS[request.status]} label={LEAVE_STATE_LABELS[request.status]} />;
}

function DecisionButtons({
  request,
  onDecide,
}: {
  request: LeaveRequest;
  onDecide: (decision: LeaveDecision) => void;
}) {
  return (
    <Stack direction="row" spacing={1}>
      <Button
        size="small"
        variant="contained"
        color="success"
        onClick={() => onDecide('approve')}
        aria-label={`Approve leave for ${request.student_name}`}
      >
        Approve
      </Button>
      <Button
        size="small"
        variant="outlined"
        color="error"
        onClick={() => onDecide('decline')}
        aria-label={`Decline leave for ${request.student_name}`}
      >
        Decline
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
  const request = deciding?.request;
  const approving = deciding?.decision === 'approve';
  return (
    <Dialog open={deciding !== undefined} onClose={busy ? undefined : onCancel} aria-labelledby="leave-decision-title">
      {request && (
        <>
          <DialogTitle id="leave-decision-title">
            {approving ? 'Approve' : 'Decline'} leave for {request.student_name}?
          </DialogTitle>
          <DialogContent>
            <DialogContentText>
              {approving
                ? `${request.student_name} (Class ${request.class_name}) will show as Leave on the register for ${dates(request)}, with the parent's reason "${request.reason}", and no absence alert will be sent for those days. The parent sees the request approved.`
                : `The parent sees the request declined. If ${request.student_name} is away on ${dates(request)}, they are marked as usual and the absence alert is sent.`}
            </DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button variant="contained" color={approving ? 'success' : 'error'} onClick={onConfirm} disabled={busy}>
              {approving ? 'Approve leave' : 'Decline leave'}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
