import SendIcon from '@mui/icons-material/Send';
import SettingsIcon from '@mui/icons-material/SettingsOutlined';
import { Box, Button, Paper, Stack, Tab, Tabs } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { FLIP_IN_RTL } from '../../components/flip-in-rtl';
import { NotLoaded } from '../../components/not-loaded';
import { PageHeader } from '../../components/page-header';
import { usePageState } from '../../components/pager';
import { useTranslation } from '../../i18n';
import { useAuth } from '../../lib/auth/auth-provider';
import { AnalyticsTab } from './analytics-tab';
import { useMessageGroups, useMessagingSettings } from './api';
import { CallList } from './call-list';
import { Conversations } from './conversations';
import { GROUPS_PER_PAGE, MessageGroups } from './message-groups';
import { MessagingSettingsDialog } from './messaging-settings-dialog';
import { SendMessageDialog } from './send-message-dialog';
import { TemplatesTab } from './templates-tab';

/** The tabs' texts (`tabs.<key>`), in their order. */
const TABS = ['history', 'analytics', 'templates', 'callList', 'conversations'] as const;
/** Tabs a link can open (`/communications?tab=call-list`, from the dashboard). */
const TAB_PARAMS: Record<string, number> = {
  analytics: 1,
  templates: 2,
  'call-list': 3,
  conversations: 4,
  // The extra tab, when the route gives one (WhatsApp, for admins).
  whatsapp: 5,
};

function TabPanel({ index, current, children }: { index: number; current: number; children: ReactNode }) {
  return (
    <div
      role="tabpanel"
      hidden={index !== current}
      id={`communications-panel-${index}`}
      aria-labelledby={`communications-tab-${index}`}
    >
      {index === current && children}
    </div>
  );
}

function MessageHistory() {
  const { t } = useTranslation('messages');
  const paging = usePageState(GROUPS_PER_PAGE[0] as number);
  const history = useMessageGroups(paging.page, paging.pageSize);
  // A page never loaded says so (not "no messages"); one shown before stays when a refetch fails.
  if (history.isError && history.data === undefined) {
    return (
      <Box sx={{ p: 3 }}>
        <NotLoaded text={t('page.historyNotLoaded')} onRetry={() => void history.refetch()} centred />
      </Box>
    );
  }
  return (
    <MessageGroups
      items={history.data?.items}
      loading={history.isPending}
      paging={paging}
      hasMore={history.data?.hasMore ?? false}
    />
  );
}

/** A tab another feature adds, composed in app/routes/communications.tsx (WhatsApp's set-up, for admins). */
export interface ExtraTab {
  label: ReactNode;
  panel: ReactNode;
}

/** Communications: message parents, and see every message sent. */
export default function CommunicationsPage({ extraTab }: { extraTab?: ExtraTab } = {}) {
  const { t } = useTranslation('messages');
  const [search] = useSearchParams();
  const [tab, setTab] = useState(() => {
    const asked = TAB_PARAMS[search.get('tab') ?? ''] ?? 0;
    return asked < TABS.length || extraTab ? asked : 0;
  });
  const [sending, setSending] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const { user } = useAuth();
  const isAdmin = user?.role === 'admin';
  const settings = useMessagingSettings(isAdmin);

  return (
    <Box>
      <PageHeader
        title={t('page.title')}
        subtitle={t('page.subtitle')}
        action={
          <Stack direction="row" spacing={1}>
            {isAdmin && (
              <Button
                variant="outlined"
                startIcon={<SettingsIcon />}
                onClick={() => setSettingsOpen(true)}
                disabled={!settings.data}
              >
                {t('page.settings')}
              </Button>
            )}
            <Button
              variant="contained"
              startIcon={
                // The paper plane flies the way the text reads.
                <SendIcon sx={FLIP_IN_RTL} />
              }
              onClick={() => setSending(true)}
            >
              {t('page.send')}
            </Button>
          </Stack>
        }
      />

      <Paper variant="outlined" sx={{ mb: 2 }}>
        <Tabs
          value={tab}
          onChange={(_event, next: number) => setTab(next)}
          variant="scrollable"
          allowScrollButtonsMobile
          aria-label={t('page.tabsLabel')}
        >
          {TABS.map((key, index) => (
            <Tab
              key={key}
              label={t(`tabs.${key}`)}
              id={`communications-tab-${index}`}
              aria-controls={`communications-panel-${index}`}
            />
          ))}
          {extraTab && <Tab label={extraTab.label} id="communications-tab-5" aria-controls="communications-panel-5" />}
        </Tabs>
      </Paper>

      <TabPanel index={0} current={tab}>
        <MessageHistory />
      </TabPanel>
      <TabPanel index={1} current={tab}>
        <AnalyticsTab />
      </TabPanel>
      <TabPanel index={2} current={tab}>
        <TemplatesTab canEdit={isAdmin} />
      </TabPanel>

      <TabPanel index={3} current={tab}>
        <CallList />
      </TabPanel>
      <TabPanel index={4} current={tab}>
        <Conversations canAnswer={isAdmin} />
      </TabPanel>
      {extraTab && (
        <TabPanel index={5} current={tab}>
          {extraTab.panel}
        </TabPanel>
      )}

      <SendMessageDialog open={sending} onClose={() => setSending(false)} />
      {settingsOpen && settings.data && (
        <MessagingSettingsDialog settings={settings.data} onClose={() => setSettingsOpen(false)} />
      )}
    </Box>
  );
}
