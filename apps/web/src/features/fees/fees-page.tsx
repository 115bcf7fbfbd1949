import { Paper, Tab, Tabs } from '@mui/material';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { useTranslation } from '../../i18n';
import { ChargeRunTab } from './charge-run-tab';
import { DuesTab } from './dues-tab';
import { PlansTab } from './plans-tab';

/** The tabs, in their order: each is `?tab=<key>` in the address and `page.tabs.<key>` in the catalogue. */
const TABS = ['dues', 'plans', 'charges'] as const;
type FeesTab = (typeof TABS)[number];

const PANELS: Record<FeesTab, () => ReactNode> = {
  dues: () => <DuesTab />,
  plans: () => <PlansTab />,
  charges: () => <ChargeRunTab />,
};

/** Fees (admins only; ADR 051–053): who owes what, the plans that raise charges, and the monthly charge run. */
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
              label={t(`page.tabs.${tab}`)}
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
