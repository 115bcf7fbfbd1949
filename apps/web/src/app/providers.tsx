import { CssBaseline, createTheme, ThemeProvider } from '@mui/material';
import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { AuthProvider } from '../lib/auth/auth-provider';
import { ToastProvider } from '../lib/toast';

const theme = createTheme({
  // Info and warning darker than MUI's defaults: white on them, and they on white, pass WCAG AA.
  palette: {
    primary: { main: '#1e5aa8' },
    info: { main: '#01579b' },
    warning: { main: '#b45309' },
    background: { default: '#f6f7fb' },
  },
  shape: { borderRadius: 8 },
  typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
});

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    defaultOptions: {
      // Data queries retry once and do not refetch when the window regains focus. Offline, a read
      // is still tried once: the console's service worker may answer it from what it kept (ADR 029).
      queries: { retry: 1, refetchOnWindowFocus: false, networkMode: 'offlineFirst' },
      mutations: { retry: false },
    },
    // Every change staff make writes an activity row: refresh the bell after any change.
    mutationCache: new MutationCache({
      onSuccess: () => client.invalidateQueries({ queryKey: ['activities'] }),
    }),
  });
  return client;
}

const queryClient = createQueryClient();

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <ToastProvider>
            <AuthProvider>{children}</AuthProvider>
          </ToastProvider>
        </BrowserRouter>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
