import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import {
  Alert,
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  InputAdornment,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type CreateFeePlanRequest, FEE_PLAN_KINDS, type FeePlan, type FeePlanKind } from '@tuitiondesk/contract';
import { useState } from 'react';
import { type TFunction, useTranslation } from '../../i18n';
import { classNamer } from '../../i18n/class-names';
import { errorText } from '../../lib/api-client';
import { classInWords, useClassChoices } from '../../lib/centre-classes';
import { useFieldErrors } from '../../lib/field-errors';
import { formatMoney, paiseToInput, parseRupees, type RupeesProblem } from '../../lib/money';
import type { PlanSave } from './plans-api';
import { StudentPicker } from './student-picker';

const FIELDS = [
  'name',
  'kind',
  'amount_paise',
  'sessions',
  'class_names',
  'student_ids',
  'due_day',
  'late_fee_paise',
  'instalments',
] as const;
type Field = (typeof FIELDS)[number];

interface InstalmentDraft {
  key: number;
  due_on: string;
  amount: string;
}

/** The most options the student search lists at once: a centre of 5,000 is searched, not scrolled. */
function rupeesProblemText(t: TFunction<'feePlans'>, problem: RupeesProblem): string {
  return t(`money.${problem}`);
}

/**
 * Add or change a fee plan (ADR 052, 056). The fields follow the kind: a package's sessions, a one-time
 * fee's parts; amounts are typed in rupees and sent as integer paise. The kind of a saved plan stays.
 */
export function PlanDialog({
  plan,
  saving,
  error,
  onCancel,
  onSave,
}: {
  /** null: a new plan. */
  plan: FeePlan | null;
  saving: boolean;
  /** The last save's refusal, shown on its field when the server names one. */
  error: unknown;
  onCancel: () => void;
  onSave: (save: PlanSave) => void;
}) {
  const { t, i18n } = useTranslation('feePlans');
  const classes = useClassChoices();
  const classWord = classNamer(i18n.language);
  const className = (value: string) => classInWords(value, classes.labelOf(value), classWord);
  const [name, setName] = useState(plan?.name ?? '');
  const [kind, setKind] = useState<FeePlanKind>(plan?.kind ?? 'monthly');
  const [amount, setAmount] = useState(plan ? paiseToInput(plan.amount_paise) : '');
  const [sessions, setSessions] = useState(plan?.sessions ? String(plan.sessions) : '');
  const [classNames, setClassNames] = useState<string[]>(plan?.class_names ?? []);
  const [studentIds, setStudentIds] = useState<number[]>(plan?.student_ids ?? []);
  const [dueDay, setDueDay] = useState(String(plan?.due_day ?? 10));
  const [lateFee, setLateFee] = useState(plan && plan.late_fee_paise > 0 ? paiseToInput(plan.late_fee_paise) : '');
  const [instalments, setInstalments] = useState<InstalmentDraft[]>(
    (plan?.instalments ?? []).map((part, index) => ({
      key: index,
      due_on: part.due_on,
      amount: paiseToInput(part.amount_paise),
    })),
  );
  const [nextKey, setNextKey] = useState(instalments.length);
  const [checked, setChecked] = useState(false);
  const serverError = error ? errorText(error, t('dialog.saveFailed')) : null;
  const { errors, edited } = useFieldErrors<Field>(serverError, FIELDS);

  const parsedAmount = parseRupees(amount);
  const parsedLate = parseRupees(lateFee, { allowZero: true });
  const parsedParts = instalments.map((part) => parseRupees(part.amount));
  const partsSum = parsedParts.reduce((sum, part) => sum + (part.paise ?? 0), 0);

  // What the form itself refuses before asking the server: each on its field.
  const local: Partial<Record<Field, string>> = {};
  if (name.trim() === '') local.name = t('dialog.nameNeeded');
  if (parsedAmount.problem) local.amount_paise = rupeesProblemText(t, parsedAmount.problem);
  if (kind === 'package' && !/^\d+$/.test(sessions.trim())) local.sessions = t('dialog.sessionsNeeded');
  if (lateFee.trim() !== '' && parsedLate.problem) local.late_fee_paise = rupeesProblemText(t, parsedLate.problem);
  const day = Number(dueDay);
  if (!/^\d+$/.test(dueDay.trim()) || day < 1 || day > 28) local.due_day = t('dialog.dueDayRange');
  if (kind === 'one_time' && instalments.length > 0) {
    const badPart = parsedParts.find((part) => part.problem);
    if (badPart?.problem) local.instalments = rupeesProblemText(t, badPart.problem);
    else if (instalments.some((part) => !/^\d{4}-\d\d-\d\d$/.test(part.due_on)))
      local.instalments = t('dialog.partDateNeeded');
    else if (parsedAmount.paise !== undefined && partsSum !== parsedAmount.paise)
      local.instalments = t('dialog.partsSum', {
        sum: formatMoney(partsSum),
        amount: formatMoney(parsedAmount.paise),
      });
  }
  const shown = (field: Field) => (checked ? local[field] : undefined) ?? errors.fields[field];

  const submit = () => {
    setChecked(true);
    if (Object.keys(local).length > 0 || parsedAmount.paise === undefined) return;
    const body: CreateFeePlanRequest = {
      name: name.trim(),
      kind,
      amount_paise: parsedAmount.paise,
      class_names: classNames,
      student_ids: studentIds,
      due_day: day,
      late_fee_paise: parsedLate.paise ?? 0,
    };
    if (kind === 'package') body.sessions = Number(sessions);
    if (kind === 'one_time')
      body.instalments = instalments.map((part, index) => ({
        due_on: part.due_on,
        amount_paise: parsedParts[index]?.paise ?? 0,
      }));
    if (plan) {
      const { kind: _kept, ...changes } = body;
      onSave({ id: plan.id, body: changes });
    } else {
      onSave({ id: null, body });
    }
  };

  const change = (field: Field, set: (value: string) => void) => (event: { target: { value: string } }) => {
    set(event.target.value);
    edited(field);
  };
  const rupees = { startAdornment: <InputAdornment position="start">₹</InputAdornment> };

  const classOptions = classes.offered(classNames).map((item) => item.value);

  return (
    <Dialog open onClose={onCancel} fullWidth maxWidth="sm">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <DialogTitle>{plan ? t('dialog.editTitle', { name: plan.name }) : t('dialog.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {errors.form && <Alert severity="error">{errors.form}</Alert>}
            <TextField
              label={t('dialog.name')}
              required
              autoFocus
              value={name}
              onChange={change('name', setName)}
              error={shown('name') !== undefined}
              helperText={shown('name') ?? t('dialog.nameHint')}
              slotProps={{ htmlInput: { maxLength: 80 } }}
            />
            <TextField
              select
              label={t('dialog.kind')}
              value={kind}
              disabled={plan !== null}
              onChange={change('kind', (value) => setKind(value as FeePlanKind))}
              helperText={plan ? t('dialog.kindKept') : t(`kindHint.${kind}`)}
            >
              {FEE_PLAN_KINDS.map((item) => (
                <MenuItem key={item} value={item}>
                  {t(`kind.${item}`)}
                </MenuItem>
              ))}
            </TextField>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t(`amount.${kind}`)}
                required
                value={amount}
                onChange={change('amount_paise', setAmount)}
                error={shown('amount_paise') !== undefined}
                helperText={
                  shown('amount_paise') ??
                  (parsedAmount.paise !== undefined ? formatMoney(parsedAmount.paise) : t('money.hint'))
                }
                slotProps={{ input: rupees, htmlInput: { inputMode: 'decimal' } }}
                sx={{ flex: 1 }}
              />
              {kind === 'package' && (
                <TextField
                  label={t('dialog.sessions')}
                  required
                  value={sessions}
                  onChange={change('sessions', setSessions)}
                  error={shown('sessions') !== undefined}
                  helperText={shown('sessions') ?? t('dialog.sessionsHint')}
                  slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                  sx={{ flex: 1 }}
                />
              )}
            </Stack>
            <Autocomplete
              multiple
              options={classOptions}
              value={classNames}
              onChange={(_, value) => {
                setClassNames(value);
                edited('class_names');
              }}
              getOptionLabel={className}
              openText={t('picker.open')}
              closeText={t('picker.close')}
              clearText={t('picker.clear')}
              noOptionsText={t('picker.noClasses')}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t('dialog.classes')}
                  error={shown('class_names') !== undefined}
                  helperText={shown('class_names') ?? t('dialog.classesHint')}
                />
              )}
            />
            <StudentPicker
              value={studentIds}
              onChange={(value) => {
                setStudentIds(value);
                edited('student_ids');
              }}
              label={t('dialog.students')}
              hint={t('dialog.studentsHint')}
              optionText={(student) =>
                t('dialog.studentOption', {
                  name: student.full_name,
                  id: student.unique_id,
                  class: className(student.class_name),
                })
              }
              problem={shown('student_ids')}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t('dialog.dueDay')}
                value={dueDay}
                onChange={change('due_day', setDueDay)}
                error={shown('due_day') !== undefined}
                helperText={shown('due_day') ?? t('dialog.dueDayHint')}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                sx={{ flex: 1 }}
              />
              <TextField
                label={t('dialog.lateFee')}
                value={lateFee}
                onChange={change('late_fee_paise', setLateFee)}
                error={shown('late_fee_paise') !== undefined}
                helperText={shown('late_fee_paise') ?? t('dialog.lateFeeHint')}
                slotProps={{ input: rupees, htmlInput: { inputMode: 'decimal' } }}
                sx={{ flex: 1 }}
              />
            </Stack>
            {kind === 'one_time' && (
              <Stack spacing={1} component="fieldset" sx={{ border: 0, m: 0, p: 0 }}>
                <Typography component="legend" variant="subtitle2">
                  {t('dialog.parts')}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {instalments.length === 0 ? t('dialog.noParts') : t('dialog.partsHint')}
                </Typography>
                {instalments.map((part, index) => (
                  <Stack key={part.key} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                    <TextField
                      type="date"
                      label={t('dialog.partDue', { number: index + 1 })}
                      value={part.due_on}
                      onChange={(event) => {
                        const due_on = event.target.value;
                        setInstalments((parts) =>
                          parts.map((item) => (item.key === part.key ? { ...item, due_on } : item)),
                        );
                        edited('instalments');
                      }}
                      slotProps={{ inputLabel: { shrink: true } }}
                      size="small"
                      sx={{ flex: 1, minWidth: 0 }}
                    />
                    <TextField
                      label={t('dialog.partAmount', { number: index + 1 })}
                      value={part.amount}
                      onChange={(event) => {
                        const value = event.target.value;
                        setInstalments((parts) =>
                          parts.map((item) => (item.key === part.key ? { ...item, amount: value } : item)),
                        );
                        edited('instalments');
                      }}
                      slotProps={{ input: rupees, htmlInput: { inputMode: 'decimal' } }}
                      size="small"
                      sx={{ flex: 1, minWidth: 0 }}
                    />
                    <IconButton
                      aria-label={t('dialog.removePart', { number: index + 1 })}
                      onClick={() => {
                        setInstalments((parts) => parts.filter((item) => item.key !== part.key));
                        edited('instalments');
                      }}
                    >
                      <DeleteOutlineIcon />
                    </IconButton>
                  </Stack>
                ))}
                {shown('instalments') && (
                  <Typography role="alert" variant="body2" color="error">
                    {shown('instalments')}
                  </Typography>
                )}
                <div>
                  <Button
                    startIcon={<AddIcon />}
                    onClick={() => {
                      setInstalments((parts) => [...parts, { key: nextKey, due_on: '', amount: '' }]);
                      setNextKey((key) => key + 1);
                    }}
                  >
                    {t('dialog.addPart')}
                  </Button>
                </div>
              </Stack>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>{t('dialog.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {t('dialog.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
