import { BarChart } from '@mui/x-charts/BarChart';
import type { MessageAnalytics } from '@tuitiondesk/contract';
import { useTranslation } from '../../i18n';
import { formatDay } from '../../lib/dates';

/** A day without its year: `22 Nov`, `22 नवंबर`, `23 नोव्हेंबर` (the year and the comma before it go). */
const withoutYear = (day: string) => formatDay(day).replace(/[,،]? \d{4}$/, '');

/**
 * Families per day: reached in the app, reached on WhatsApp, sent by hand, not reached. Loaded only when the
 * Message Analytics tab opens (the charting library stays out of the other pages' JavaScript).
 */
export default function ReachChart({ days }: { days: MessageAnalytics['days'] }) {
  const { t } = useTranslation('messages');
  return (
    <BarChart
      height={280}
      xAxis={[{ scaleType: 'band', data: days.map((day) => withoutYear(day.date)) }]}
      series={[
        { label: t('chart.inApp'), data: days.map((day) => day.in_app), stack: 'families', color: '#1565c0' },
        { label: t('chart.whatsapp'), data: days.map((day) => day.whatsapp), stack: 'families', color: '#128c4a' },
        {
          label: t('chart.sentByHand'),
          data: days.map((day) => day.sent_by_hand),
          stack: 'families',
          color: '#6a1b9a',
        },
        { label: t('chart.notReached'), data: days.map((day) => day.not_reached), stack: 'families', color: '#c62828' },
      ]}
      slotProps={{ legend: { position: { vertical: 'top', horizontal: 'center' } } }}
    />
  );
}
