import AddIcon from '@mui/icons-material/Add';
import ArchiveIcon from '@mui/icons-material/ArchiveOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import UnarchiveIcon from '@mui/icons-material/UnarchiveOutlined';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  IconButton,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Tooltip,
  Typography,
} from '@mui/material';
import type { FeePlan } from '@tuitiondesk/contract';
import { type ReactNode, useMemo, useState } from 'react';
import { ColumnTable } from '../../components/data-table';
import { NotLoaded } from '../../components/not-loaded';
import type { DataColumn } from '../../components/row-cards';
import { type TFunction, useTranslation } from '../../i18n';
import { classNamer } from '../../i18n/class-names';
import { ApiError, errorText } from '../../lib/api-client';
import { type ClassChoices, classInWords, useClassChoices } from '../../lib/centre-classes';
import { formatDay, formatNumber } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import { useToast } from '../../lib/toast';
import { DiscountDialog, ruleText } from './discount-dialog';
import { PlanDialog } from './plan-dialog';
import {
  type PlanSave,
  useArchivePlan,
  useDeletePlan,
  useFeeDiscounts,
  useFeePlans,
  useSavePlan,
  useUpdateDiscounts,
} from './plans-api';

/** "₹1,500.00 a month", "₹50.00 an attended day", "₹3,000.00 for 12 sessions", "₹2,000.00 once". */
function amountText(t: TFunction<'feePlans'>, plan: FeePlan): string {
  const amount = formatMoney(plan.amount_paise);
  if (plan.kind === 'package') return t('list.amount.package', { amount, count: plan.sessions ?? 0 });
  if (plan.kind === 'one_time' && plan.instalments.length > 0)
    return t('list.amount.parts', { amount, count: plan.instalments.length });
  return t(`list.amount.${plan.kind}`, { amount });
}

/** Who a plan charges: its classes by their labels, then how many students it names besides. */
function chargesText(
  t: TFunction<'feePlans'>,
  plan: FeePlan,
  classes: ClassChoices,
  classWord: (value: string) => string,
): string {
  const parts = plan.class_names.map((value) => classInWords(value, classes.labelOf(value), classWord));
  if (plan.student_ids.length > 0) parts.push(t('list.students', { count: plan.student_ids.length }));
  return parts.length > 0 ? parts.join(', ') : t('list.nobody');
}

function DeleteDialog({ plan, onClose }: { plan: FeePlan; onClose: () => void }) {
  const { t } = useTranslation('feePlans');
  const remove = useDeletePlan();
  const archive = useArchivePlan();
  const { showToast } = useToast();
  const refused = remove.error instanceof ApiError && remove.error.status === 409;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('delete.title', { name: plan.name })}</DialogTitle>
      <DialogContent>
        {remove.error ? (
          <Alert severity={refused ? 'warning' : 'error'}>{errorText(remove.error, t('delete.failed'))}</Alert>
        ) : (
          <DialogContentText>{t('delete.text')}</DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('dialog.cancel')}</Button>
        {refused && !plan.archived ? (
          <Button
            variant="contained"
            disabled={archive.isPending}
            onClick={() =>
              archive.mutate(
                { id: plan.id, archived: true },
                {
                  onSuccess: () => {
                    showToast(t('done.archived', { name: plan.name }), 'success');
                    onClose();
                  },
                  onError: (error) => showToast(errorText(error, t('delete.failed')), 'error'),
                },
              )
            }
          >
            {t('delete.archiveInstead')}
          </Button>
        ) : (
          <Button
            color="error"
            variant="contained"
            disabled={remove.isPending || refused}
            onClick={() =>
              remove.mutate(plan.id, {
                onSuccess: () => {
                  showToast(t('done.deleted', { name: plan.name }), 'success');
                  onClose();
                },
              })
            }
          >
            {t('delete.confirm')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

function DiscountsSummary() {
  const { t } = useTranslation('feePlans');
  const discounts = useFeeDiscounts();
  const update = useUpdateDiscountsState();
  let body: ReactNode;
  if (discounts.isPending) body = <Skeleton width={240} aria-label={t('discounts.loading')} />;
  else if (!discounts.data)
    body = <NotLoaded text={t('discounts.notLoaded')} onRetry={() => void discounts.refetch()} />;
  else
    body = (
      <Typography variant="body2">
        {t('discounts.summary', {
          sibling: ruleText(t, discounts.data.sibling),
          staff: ruleText(t, discounts.data.staff_child),
          count: discounts.data.staff_child_ids.length,
        })}
      </Typography>
    );
  return (
    <Paper variant="outlined" component="section" aria-labelledby="fee-discounts-title" sx={{ p: 2 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: { xs: 'flex-start', sm: 'center' } }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography id="fee-discounts-title" component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('discounts.title')}
          </Typography>
          {body}
        </Box>
        <Button onClick={update.open} disabled={!discounts.data}>
          {t('discounts.change')}
        </Button>
      </Stack>
      {update.isOpen && discounts.data && (
        <DiscountDialog
          discounts={discounts.data}
          saving={update.mutation.isPending}
          error={update.mutation.error}
          onCancel={update.close}
          onSave={update.save}
        />
      )}
    </Paper>
  );
}

function useUpdateDiscountsState() {
  const { t } = useTranslation('feePlans');
  const { showToast } = useToast();
  const mutation = useUpdateDiscounts();
  const [isOpen, setOpen] = useState(false);
  return {
    mutation,
    isOpen,
    open: () => {
      mutation.reset();
      setOpen(true);
    },
    close: () => setOpen(false),
    save: (body: Parameters<typeof mutation.mutate>[0]) =>
      mutation.mutate(body, {
        onSuccess: () => {
          showToast(t('discounts.saved'), 'success');
          setOpen(false);
        },
      }),
  };
}

/**
 * Fees › Plans (admins only; ADR 052, 056): the plans that raise charges, those in use first and the
 * archived ones on demand; add, change, archive or delete one; and the family-link discounts.
 */
export function PlansTab() {
  const { t, i18n } = useTranslation('feePlans');
  // A class of the spec's kind in the language's words ("جماعت 9"), the centre's own as labelled (ADR 054).
  const classWord = classNamer(i18n.language);
  const classes = useClassChoices();
  const plans = useFeePlans();
  const save = useSavePlan();
  const archive = useArchivePlan();
  const { showToast } = useToast();
  const [showArchived, setShowArchived] = useState(false);
  const [editing, setEditing] = useState<FeePlan | 'new' | null>(null);
  const [deleting, setDeleting] = useState<FeePlan | null>(null);

  const all = plans.data ?? [];
  const archivedCount = all.filter((plan) => plan.archived).length;
  const rows = useMemo(
    () =>
      [...(plans.data ?? [])]
        .filter((plan) => showArchived || !plan.archived)
        .sort((a, b) => Number(a.archived) - Number(b.archived)),
    [plans.data, showArchived],
  );

  const columns: DataColumn<FeePlan>[] = [
    {
      id: 'name',
      header: t('list.name'),
      cell: (plan) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <span>{plan.name}</span>
          {plan.archived && <Chip size="small" label={t('list.archived')} />}
        </Stack>
      ),
    },
    { id: 'kind', header: t('list.kind'), cell: (plan) => t(`kind.${plan.kind}`), nowrap: true },
    { id: 'amount', header: t('list.amountHeader'), cell: (plan) => amountText(t, plan) },
    { id: 'charges', header: t('list.chargesTo'), cell: (plan) => chargesText(t, plan, classes, classWord) },
    {
      id: 'due',
      header: t('list.due'),
      cell: (plan) =>
        plan.kind === 'one_time' && plan.instalments.length > 0
          ? t('list.partsDue', { dates: plan.instalments.map((part) => formatDay(part.due_on)).join(', ') })
          : plan.late_fee_paise > 0
            ? t('list.dueWithLate', { day: plan.due_day, amount: formatMoney(plan.late_fee_paise) })
            : t('list.dueDay', { day: plan.due_day }),
    },
    { id: 'raised', header: t('list.raised'), cell: (plan) => formatNumber(plan.charges), nowrap: true },
  ];

  const setArchived = (plan: FeePlan, archived: boolean) =>
    archive.mutate(
      { id: plan.id, archived },
      {
        onSuccess: () => showToast(t(archived ? 'done.archived' : 'done.unarchived', { name: plan.name }), 'success'),
        onError: (error) => showToast(errorText(error, t('list.changeFailed')), 'error'),
      },
    );

  const onSave = (request: PlanSave) =>
    save.mutate(request, {
      onSuccess: (saved) => {
        showToast(t(request.id === null ? 'done.added' : 'done.saved', { name: saved.name }), 'success');
        setEditing(null);
      },
    });

  let message: ReactNode;
  if (plans.isPending) message = t('list.loading');
  else if (!plans.data) message = <NotLoaded text={t('list.notLoaded')} onRetry={() => void plans.refetch()} centred />;
  else if (rows.length === 0) message = all.length === 0 ? t('list.empty') : t('list.allArchived');

  return (
    <Stack spacing={2} sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: { xs: 'stretch', sm: 'center' } }}
      >
        <Box>
          <Typography component="h2" variant="h6">
            {t('plans.heading')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('plans.intro')}
          </Typography>
        </Box>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => {
            save.reset();
            setEditing('new');
          }}
          sx={{ flexShrink: 0 }}
        >
          {t('plans.add')}
        </Button>
      </Stack>
      {archivedCount > 0 && (
        <FormControlLabel
          control={<Switch checked={showArchived} onChange={(event) => setShowArchived(event.target.checked)} />}
          label={t('plans.showArchived', { count: archivedCount })}
        />
      )}
      <ColumnTable
        label={t('plans.heading')}
        region={t('plans.heading')}
        outlined
        columns={columns}
        rows={rows}
        rowKey={(plan) => plan.id}
        nameOf={(plan) => plan.name}
        message={message}
        busy={plans.isFetching && !plans.isPending}
        actions={{
          header: t('list.actions'),
          cell: (plan) => (
            <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
              <Tooltip title={t('list.edit')}>
                <IconButton
                  aria-label={t('list.editName', { name: plan.name })}
                  onClick={() => {
                    save.reset();
                    setEditing(plan);
                  }}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title={t(plan.archived ? 'list.unarchive' : 'list.archive')}>
                <IconButton
                  aria-label={t(plan.archived ? 'list.unarchiveName' : 'list.archiveName', { name: plan.name })}
                  disabled={archive.isPending}
                  onClick={() => setArchived(plan, !plan.archived)}
                >
                  {plan.archived ? <UnarchiveIcon fontSize="small" /> : <ArchiveIcon fontSize="small" />}
                </IconButton>
              </Tooltip>
              <Tooltip title={t('list.delete')}>
                <IconButton aria-label={t('list.deleteName', { name: plan.name })} onClick={() => setDeleting(plan)}>
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </Stack>
          ),
        }}
      />
      <DiscountsSummary />
      {editing !== null && (
        <PlanDialog
          plan={editing === 'new' ? null : editing}
          saving={save.isPending}
          error={save.error}
          onCancel={() => setEditing(null)}
          onSave={onSave}
        />
      )}
      {deleting && <DeleteDialog plan={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}
