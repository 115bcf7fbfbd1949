import CheckIcon from '@mui/icons-material/Check';
import { Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import { type FeeMatchCandidate, type FeeMatchTask, PAYMENT_MODES } from '@tuitiondesk/contract';
import { ColumnTable } from '../../components/data-table';
import { DataSentence, LtrText, NameText } from '../../components/data-text';
import { CardFields, type DataColumn } from '../../components/row-cards';
import { type TFunction, useTranslation } from '../../i18n';
import { formatDay, formatDayTime } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import { BalanceText, useClassName } from './family-text';

/** A payment's mode in the language in use; one the console does not know as the server wrote it. */
function useModeText(): (mode: string) => string {
  const { t } = useTranslation('fees');
  return (mode) => {
    const known = PAYMENT_MODES.find((value) => value === mode);
    return known ? t(`modes.${known}`) : mode;
  };
}

/** The family's payments the claim may be matched to, the one with the reference the family gave marked. */
function Candidates({ task, onMatch }: { task: FeeMatchTask; onMatch: (payment: FeeMatchCandidate) => void }) {
  const { t } = useTranslation('feeReminders');
  const modeText = useModeText();
  const columns: DataColumn<FeeMatchCandidate>[] = [
    {
      id: 'receipt',
      header: t('candidates.receipt'),
      cell: (row) => <LtrText>{row.receipt_number}</LtrText>,
      nowrap: true,
    },
    { id: 'received', header: t('candidates.received'), cell: (row) => formatDay(row.received_on), nowrap: true },
    { id: 'amount', header: t('candidates.amount'), cell: (row) => formatMoney(row.amount_paise), nowrap: true },
    { id: 'mode', header: t('candidates.mode'), cell: (row) => modeText(row.mode) },
    {
      id: 'reference',
      header: t('candidates.reference'),
      cell: (row) => (
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          {row.reference ? <LtrText>{row.reference}</LtrText> : '-'}
          {row.same_reference && (
            <Chip size="small" color="success" icon={<CheckIcon />} label={t('candidates.sameReference')} />
          )}
        </Stack>
      ),
    },
  ];
  return (
    <ColumnTable
      label={t('candidates.label', { name: task.parent_name })}
      columns={columns}
      rows={task.candidates}
      rowKey={(row) => row.payment_id}
      nameOf={(row) => row.receipt_number}
      message={task.candidates.length === 0 ? t('candidates.none') : undefined}
      actions={{
        header: t('candidates.actions'),
        cell: (row) => (
          <Button
            size="small"
            variant={row.same_reference ? 'contained' : 'outlined'}
            onClick={() => onMatch(row)}
            aria-label={t('match.button', { number: row.receipt_number })}
          >
            {t('match.short')}
          </Button>
        ),
      }}
    />
  );
}

/** How a done task was resolved: matched to a receipt, or dismissed with its note; by whom and when. */
function outcomeText(t: TFunction<'feeReminders'>, task: FeeMatchTask): string {
  if (task.status === 'matched') return t('done.matched', { number: task.receipt_number ?? '-' });
  if (task.status === 'dismissed') return t('done.dismissed', { note: task.note ?? '' });
  return t('done.open');
}

/**
 * One family's "Paid already": who, their children, the reference they gave, when and how they said
 * it and what they owe now; beneath, their payments to match it to. An open task has Match on each
 * payment and Dismiss; a done one says how it was resolved.
 */
export function MatchTaskCard({
  task,
  onMatch,
  onDismiss,
}: {
  task: FeeMatchTask;
  onMatch: (payment: FeeMatchCandidate) => void;
  onDismiss: () => void;
}) {
  const { t } = useTranslation('feeReminders');
  const className = useClassName();
  const open = task.status === 'open';
  const headingId = `match-task-${task.id}`;
  const fields: DataColumn<FeeMatchTask>[] = [
    {
      id: 'children',
      header: t('task.children'),
      cell: (row) =>
        row.students.map((student) => `${student.full_name} (${className(student.class_name)})`).join(', '),
    },
    { id: 'phone', header: t('task.phone'), cell: (row) => <LtrText>{row.parent_phone}</LtrText> },
    {
      id: 'reference',
      header: t('task.reference'),
      cell: (row) =>
        row.reference ? (
          <LtrText>{row.reference}</LtrText>
        ) : (
          <Box component="span" sx={{ color: 'text.secondary', fontStyle: 'italic' }}>
            {t('task.noReference')}
          </Box>
        ),
    },
    {
      id: 'claimed',
      header: t('task.claimed'),
      cell: (row) => t('task.claimedVia', { when: formatDayTime(row.claimed_at), via: t(`via.${row.via}`) }),
    },
    { id: 'balance', header: t('task.balance'), cell: (row) => <BalanceText balance={row.balance_paise} /> },
  ];
  if (!open)
    fields.push(
      { id: 'outcome', header: t('task.outcome'), cell: (row) => outcomeText(t, row) },
      {
        id: 'resolved',
        header: t('task.resolved'),
        cell: (row) => t('task.resolvedBy', { who: row.resolved_by ?? '-', when: formatDayTime(row.resolved_at) }),
      },
    );
  return (
    <Paper variant="outlined" component="article" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}
      >
        <Typography id={headingId} component="h3" variant="subtitle1" sx={{ fontWeight: 600, minWidth: 0 }}>
          <DataSentence
            text={(stand) => t('task.title', { name: stand.name })}
            data={{ name: <NameText sx={{ display: 'inline' }}>{task.parent_name}</NameText> }}
          />
        </Typography>
        {open && (
          <Button
            color="error"
            variant="outlined"
            size="small"
            onClick={onDismiss}
            aria-label={t('dismiss.button', { name: task.parent_name })}
            sx={{ alignSelf: { xs: 'flex-start' } }}
          >
            {t('dismiss.short')}
          </Button>
        )}
      </Stack>
      <CardFields row={task} columns={fields} />
      {open && (
        <Box sx={{ mt: 2 }}>
          <Typography component="h4" variant="body2" sx={{ fontWeight: 600, mb: 1 }}>
            {t('candidates.title')}
          </Typography>
          <Candidates task={task} onMatch={onMatch} />
        </Box>
      )}
    </Paper>
  );
}
