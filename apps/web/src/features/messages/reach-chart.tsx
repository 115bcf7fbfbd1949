import { BarChart } from '@mui/x-charts/BarChart';
import type { MessageAnalytics } from '@tuitiondesk/contract';
import { formatDay } from '../../lib/dates';

/**
 * Families per day: reached in the app, reached on WhatsApp, not reached. Loaded only when the
 * Message Analytics tab opens (the charting library stays out of the other pages' JavaScript).
 */
export default function ReachChart({ days }: { days: MessageAnalytics['days'] }) {
  return (
    <BarChart
      height={280}
      xAxis={[{ scaleType: 'band', data: days.map((day) => formatDay(day.date).replace(/ \d{4}$/, '')) }]}
      series={[
        { label: 'In the app', data: days.map((day) => day.in_app), stack: 'families', color: '#1565c0' },
        { label: 'On WhatsApp', data: days.map((day) => day.whatsapp), stack: 'families', color: '#128c4a' },
        { label: 'Not reached', data: days.map((day) => day.not_reached), stack: 'families', color: '#c62828' },
      ]}
      slotProps={{ legend: { position: { vertical: 'top', horizontal: 'center' } } }}
    />
  );
}
