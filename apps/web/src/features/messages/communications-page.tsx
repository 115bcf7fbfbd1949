import SendIcon from '@mui/icons-material/Send';
import { Box, Button, Paper, Tab, Tabs } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { usePageState } from '../../components/pager';
import { useMessageHistory } from './api';
import { MessageHistoryTable, ROWS_PER_PAGE_OPTIONS } from './message-history-table';
import { SendMessageDialog } from './send-message-dialog';

const TABS = ['Message History', 'Message Analytics (Coming Soon)', 'Templates (Coming Soon)'] as const;

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
  const paging = usePageState(ROWS_PER_PAGE_OPTIONS[0] as number);
  const history = useMessageHistory(paging.page, paging.pageSize);
  return (
    <MessageHistoryTable
      items={history.data?.items}
      loading={history.isPending}
      paging={paging}
      hasMore={history.data?.hasMore ?? false}
    />
  );
}

/** Communications: message parents, and see every message sent. */
export default function CommunicationsPage() {
  const [tab, setTab] = useState(0);
  const [sending, setSending] = useState(false);

  return (
    <Box>
      <PageHeader
        title="Communications"
        subtitle="Messages to parents, delivered to their mobile app."
        action={
          <Button variant="contained" startIcon={<SendIcon />} onClick={() => setSending(true)}>
            Send Message
          </Button>
        }
      />

      <Paper variant="outlined" sx={{ mb: 2 }}>
        <Tabs
          value={tab}
          onChange={(_event, next: number) => setTab(next)}
          variant="scrollable"
          allowScrollButtonsMobile
          aria-label="Communications"
        >
          {TABS.map((label, index) => (
            <Tab
              key={label}
              label={label}
              id={`communications-tab-${index}`}
              aria-controls={`communications-panel-${index}`}
            />
          ))}
        </Tabs>
      </Paper>

      <TabPanel index={0} current={tab}>
        <MessageHistory />
      </TabPanel>
      <TabPanel index={1} current={tab}>
        <Paper variant="outlined">
          <EmptyState
            title="Coming Soon"
            text="Message analytics (delivery and read rates over time) are not available yet."
          />
        </Paper>
      </TabPanel>
      <TabPanel index={2} current={tab}>
        <Paper variant="outlined">
          <EmptyState title="Coming Soon" text="Reusable message templates are not available yet." />
        </Paper>
      </TabPanel>

      <SendMessageDialog open={sending} onClose={() => setSending(false)} />
    </Box>
  );
}
