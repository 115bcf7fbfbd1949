import SendIcon from '@mui/icons-material/Send';
import { Box, Button, Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { EmptyState } from '../../components/empty-state';
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
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(ROWS_PER_PAGE_OPTIONS[0] as number);
  const history = useMessageHistory(page, rowsPerPage);
  return (
    <MessageHistoryTable
      items={history.data?.items}
      loading={history.isPending}
      page={page}
      rowsPerPage={rowsPerPage}
      hasMore={history.data?.hasMore ?? false}
      onPageChange={setPage}
      onRowsPerPageChange={(rows) => {
        setRowsPerPage(rows);
        setPage(0);
      }}
    />
  );
}

/** Communications (spec section 2): message parents, and see every message sent. */
export default function CommunicationsPage() {
  const [tab, setTab] = useState(0);
  const [sending, setSending] = useState(false);

  return (
    <Box>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mb: 2, justifyContent: 'space-between', alignItems: { xs: 'stretch', sm: 'center' } }}
      >
        <Box>
          <Typography variant="h5" component="h2" sx={{ fontWeight: 600 }}>
            Communications
          </Typography>
          <Typography color="text.secondary">Messages to parents, delivered to their mobile app.</Typography>
        </Box>
        <Button variant="contained" startIcon={<SendIcon />} onClick={() => setSending(true)}>
          Send Message
        </Button>
      </Stack>

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
