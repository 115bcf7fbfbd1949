import type { UseMutationResult } from '@tanstack/react-query';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';

/**
 * A switch over one of the centre's yes/no settings: while a change is on its way it shows where it is
 * going, not where it was (`saved` otherwise); a change is saved, then said as the answer has it
 * (`said`), or why it failed (`failed`, when the server gives no words).
 */
export function useSettingSwitch<Field extends string>(
  update: UseMutationResult<Record<Field, boolean>, Error, Record<Field, boolean>>,
  field: Field,
  saved: boolean,
  said: (on: boolean) => string,
  failed: () => string,
) {
  const { showToast } = useToast();
  const checked = update.isPending ? update.variables[field] : saved;
  const change = (next: boolean) => {
    update.mutate({ [field]: next } as Record<Field, boolean>, {
      onSuccess: (answer) => showToast(said(answer[field]), 'success'),
      onError: (error) => showToast(errorText(error, failed()), 'error'),
    });
  };
  return { checked, change };
}
