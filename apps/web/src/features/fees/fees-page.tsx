import { Chip, Paper, Tab, Tabs } from '@mui/material';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { useTranslation } from '../../i18n';
import { ChargeRunTab } from './charge-run-tab';
import { DuesTab } from './dues-tab';
import { MatchTasksTab } from './match-tasks-tab';
import { PlansTab } from './plans-tab';
import { useMatchTasks } from './reminders-api';
import { RemindersTab } from './reminders-tab';

/** The tabs, in their order: each is `?tab=<key>` in the address and `page.tabs.<key>` in the catalogue. */
const TABS = ['dues', 'plans', 'charges', 'reminders', 'matches'] as const;
type FeesTab = (typeof TABS)[number];

const PANELS: Record<FeesTab, () => ReactNode> = {
  dues: () => <DuesTab />,
  plans: () => <PlansTab />,
  charges: () => <ChargeRunTab />,
  reminders: () => <RemindersTab />,
  matches: () => <MatchTasksTab />,
};

/** The Match tasks tab's name with the open tasks' count beside it, while there are any. */
function MatchesLabel() {
  const { t } = useTranslation(['fees', 'feeReminders']);
  const open = useMatchTasks('open').data?.open_count ?? 0;
  return (
    <>
      {t('page.tabs.matches')}
      {open > 0 && (
        <Chip
          component="span"
          size="small"
          color="warning"
          label={open > 999 ? '999+' : open}
          aria-label={t('feeReminders:tabBadge', { count: open })}
          sx={{ ml: 1, height: 20, fontSize: 12 }}
        />
      )}
    </>
  );
}

/**
 * Fees (admins only; ADR 051–053, 061): who owes what, the plans that raise charges, the monthly
 * charge run, the reminders' schedule, and the "Paid already" claims to match to a payment.
 */
export default function FeesPage() {
  const { t } = useTranslation('fees');
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const current: FeesTab = TABS.find((tab) => tab === asked) ?? 'dues';
  return (
    <>
      <PageHeader title={t('page.title')} />
      <Paper variant="outlined">
        <Tabs
          value={current}
          onChange={(_, tab: FeesTab) => setParams(tab === 'dues' ? {} : { tab }, { replace: true })}
          variant="scrollable"
          allowScrollButtonsMobile
        >
          {TABS.map((tab) => (
            <Tab
              key={tab}
              value={tab}
              label={tab === 'matches' ? <MatchesLabel /> : t(`page.tabs.${tab}`)}
              id={`fees-tab-${tab}`}
              aria-controls={`fees-panel-${tab}`}
            />
          ))}
        </Tabs>
        <div role="tabpanel" id={`fees-panel-${current}`} aria-labelledby={`fees-tab-${current}`}>
          {PANELS[current]()}
        </div>
      </Paper>
    </>
  );
}
