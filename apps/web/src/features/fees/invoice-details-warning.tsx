import { Alert, Button } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { GST_DETAILS_NEEDED_FROM_PAISE } from '@tuitiondesk/contract';
import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { useGstSettings } from '../../lib/gst-settings';
import { formatMoney } from '../../lib/money';
import { familyQuery } from './api';
import { FamilyGstDialog } from './family-state';

/**
 * Before a payment of ₹50,000 or more is recorded on a registered centre's books for a family with no
 * billing address (Rule 46: such an invoice to an unregistered person carries the recipient's address
 * and state), the payment dialog says so and offers the family's GST details dialog (ADR 065). It
 * never stops the payment: money is taken, and the invoice is issued without the address.
 */
export function InvoiceDetailsWarning({ familyId, amountPaise }: { familyId: number; amountPaise: number | null }) {
  const { t } = useTranslation('fees');
  const gst = useGstSettings();
  const family = useQuery({ ...familyQuery(familyId), enabled: gst.data?.registered === true });
  const [editing, setEditing] = useState(false);
  const centreState = gst.data?.state_code ?? null;
  if (!gst.data?.registered || centreState === null || !family.data) return null;
  if (amountPaise === null || amountPaise < GST_DETAILS_NEEDED_FROM_PAISE || family.data.billing_address) return null;
  return (
    <Alert
      severity="warning"
      sx={{ mt: 2 }}
      data-testid="invoice-details-warning"
      action={
        <Button color="inherit" size="small" onClick={() => setEditing(true)}>
          {t('collect.addGstDetails')}
        </Button>
      }
    >
      {t('collect.invoiceAddress', { amount: formatMoney(GST_DETAILS_NEEDED_FROM_PAISE) })}
      {editing && <FamilyGstDialog family={family.data} centreState={centreState} onClose={() => setEditing(false)} />}
    </Alert>
  );
}
