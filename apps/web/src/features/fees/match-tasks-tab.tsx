import { Alert, Box, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import type { FeeMatchCandidate, FeeMatchTask } from '@tuitiondesk/contract';
import { type ReactNode, useState } from 'react';
import { NotLoaded } from '../../components/not-loaded';
import { useTranslation } from '../../i18n';
import { ApiError, errorText } from '../../lib/api-client';
import { splitFieldError } from '../../lib/field-errors';
import { formatMoney } from '../../lib/money';
import { useToast } from '../../lib/toast';
import { ConfirmDialog } from './confirm-dialog';
import { MatchTaskCard } from './match-task-card';
import { type MatchTaskList, useDismissTask, useMatchTask, useMatchTasks, useRefreshMatchTasks } from './reminders-api';

const isConflict = (error: unknown) => error instanceof ApiError && error.status === 409;

/** What the dialogs do when another admin resolved the task first: close, say so and read the list again. */
function useOnConflict(onConflict: () => void) {
  const refresh = useRefreshMatchTasks();
  return (error: unknown) => {
    if (!isConflict(error)) return;
    onConflict();
    void refresh();
  };
}

function MatchDialog({
  task,
  payment,
  onClose,
  onConflict,
}: {
  task: FeeMatchTask;
  payment: FeeMatchCandidate;
  onClose: () => void;
  onConflict: () => void;
}) {
  const { t } = useTranslation('feeReminders');
  const { showToast } = useToast();
  const match = useMatchTask();
  const conflict = useOnConflict(onConflict);
  return (
    <ConfirmDialog
      title={t('match.title', { number: payment.receipt_number })}
      text={t('match.text', {
        name: task.parent_name,
        number: payment.receipt_number,
        amount: formatMoney(payment.amount_paise),
      })}
      confirm={t('match.short')}
      busy={match.isPending}
      failure={match.error && !isConflict(match.error) ? errorText(match.error, t('failed')) : null}
      onClose={onClose}
      onConfirm={() =>
        match.mutate(
          { id: task.id, body: { payment_id: payment.payment_id } },
          {
            onSuccess: () => {
              showToast(t('match.done', { number: payment.receipt_number }), 'success');
              onClose();
            },
            onError: conflict,
          },
        )
      }
    />
  );
}

function DismissDialog({
  task,
  onClose,
  onConflict,
}: {
  task: FeeMatchTask;
  onClose: () => void;
  onConflict: () => void;
}) {
  const { t } = useTranslation('feeReminders');
  const { showToast } = useToast();
  const dismiss = useDismissTask();
  const conflict = useOnConflict(onConflict);
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);
  const refusal = splitFieldError(
    dismiss.error && !isConflict(dismiss.error) ? errorText(dismiss.error, t('failed')) : null,
    ['note'] as const,
  );
  const submit = () => {
    if (note.trim() === '') {
      setMissing(true);
      return;
    }
    dismiss.mutate(
      { id: task.id, body: { note: note.trim() } },
      {
        onSuccess: () => {
          showToast(t('dismiss.done'), 'success');
          onClose();
        },
        onError: conflict,
      },
    );
  };
  return (
    <ConfirmDialog
      title={t('dismiss.title', { name: task.parent_name })}
      confirm={t('dismiss.short')}
      danger
      busy={dismiss.isPending}
      failure={refusal.form}
      onConfirm={submit}
      onClose={onClose}
    >
      <TextField
        label={t('dismiss.note')}
        value={note}
        required
        autoFocus
        onChange={(event) => {
          setNote(event.target.value);
          setMissing(false);
          dismiss.reset();
        }}
        error={missing || refusal.fields.note !== undefined}
        helperText={missing ? t('dismiss.noteRequired') : (refusal.fields.note ?? t('dismiss.noteHint'))}
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
    </ConfirmDialog>
  );
}

type Working =
  | { kind: 'match'; task: FeeMatchTask; payment: FeeMatchCandidate }
  | { kind: 'dismiss'; task: FeeMatchTask };

/**
 * Fees › Match tasks (issue 29 items 6 and 7): families who said "Paid already", oldest first, each
 * with the family's payments to match the claim to (the one with the same reference marked), or a
 * note to dismiss it. Done shows how each was resolved. Two admins at once: the second is told and
 * the list is read again.
 */
export function MatchTasksTab() {
  const { t } = useTranslation('feeReminders');
  const [list, setList] = useState<MatchTaskList>('open');
  const tasks = useMatchTasks(list);
  const [working, setWorking] = useState<Working | null>(null);
  const [conflict, setConflict] = useState(false);
  const onConflict = () => {
    setWorking(null);
    setConflict(true);
  };
  const rows = tasks.data?.tasks ?? [];
  let body: ReactNode;
  if (tasks.isError)
    body = <NotLoaded text={errorText(tasks.error, t('matchesNotLoaded'))} onRetry={() => void tasks.refetch()} />;
  else if (tasks.isPending) body = <Typography color="text.secondary">{t('matchesLoading')}</Typography>;
  else if (rows.length === 0)
    body = <Typography color="text.secondary">{list === 'open' ? t('emptyOpen') : t('emptyDone')}</Typography>;
  else
    body = (
      <Stack spacing={2} aria-busy={tasks.isFetching}>
        {rows.map((task) => (
          <MatchTaskCard
            key={task.id}
            task={task}
            onMatch={(payment) => {
              setConflict(false);
              setWorking({ kind: 'match', task, payment });
            }}
            onDismiss={() => {
              setConflict(false);
              setWorking({ kind: 'dismiss', task });
            }}
          />
        ))}
      </Stack>
    );

  return (
    <Stack spacing={2} sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
      >
        <Box>
          <Typography component="h2" variant="h6">
            {t('matchesHeading')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('matchesHint')}
          </Typography>
        </Box>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={list}
          aria-label={t('show')}
          onChange={(_, value: MatchTaskList | null) => {
            if (value) setList(value);
          }}
        >
          <ToggleButton value="open">{t('open')}</ToggleButton>
          <ToggleButton value="done">{t('done.label')}</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      <Box aria-live="polite">{conflict && <Alert severity="warning">{t('conflict')}</Alert>}</Box>
      {body}
      {working?.kind === 'match' && (
        <MatchDialog
          task={working.task}
          payment={working.payment}
          onClose={() => setWorking(null)}
          onConflict={onConflict}
        />
      )}
      {working?.kind === 'dismiss' && (
        <DismissDialog task={working.task} onClose={() => setWorking(null)} onConflict={onConflict} />
      )}
    </Stack>
  );
}
