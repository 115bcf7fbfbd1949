import { CacheProvider } from '@emotion/react';
import { CssBaseline, createTheme, ThemeProvider } from '@mui/material';
import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo } from 'react';
import { BrowserRouter } from 'react-router';
import { isLanguage, type Language, languageFor, showLanguage, useTranslation } from '../i18n';
import { cacheFor } from '../i18n/direction';
import { fontFamilyFor } from '../i18n/fonts';
import { AuthProvider, useAuth } from '../lib/auth/auth-provider';
import { ToastProvider } from '../lib/toast';

/**
 * The keyboard focus ring (WCAG 2.4.7): MUI takes the browser's outline off its buttons and shows
 * only a faint ripple. A 3 px ring in the primary blue (6:1 against white and the page) outside the
 * control, or inside it where a list or menu would clip it; white on the coloured toasts, whose
 * close button would otherwise carry a blue ring on blue or green. Only on keyboard focus
 * (`Mui-focusVisible`), never on a click.
 */
const FOCUS_RING = 'var(--focus-ring, #1e5aa8)';
const focusRing = (offset: string) => ({
  '&.Mui-focusVisible': { outline: `3px solid ${FOCUS_RING}`, outlineOffset: offset },
});

/**
 * Nastaliq (Urdu) rises and falls far more than Latin: more room between lines, and labels, chips,
 * buttons and headings tall enough that no letter is clipped (ADR 048).
 */
const NASTALIQ_LINE = 1.9;
const NASTALIQ_TYPOGRAPHY = Object.fromEntries(
  ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'subtitle1', 'subtitle2', 'body1', 'body2', 'button', 'caption', 'overline'].map(
    (variant) => [variant, { lineHeight: NASTALIQ_LINE }],
  ),
);
const NASTALIQ_COMPONENTS = {
  MuiInputLabel: { styleOverrides: { root: { lineHeight: NASTALIQ_LINE, overflow: 'visible' } } },
  MuiInputBase: { styleOverrides: { input: { lineHeight: NASTALIQ_LINE, height: 'auto' } } },
  MuiChip: {
    styleOverrides: { root: { height: 'auto', minHeight: 32 }, label: { lineHeight: NASTALIQ_LINE, paddingBlock: 2 } },
  },
  MuiTableCell: { styleOverrides: { root: { lineHeight: NASTALIQ_LINE } } },
  MuiListItemText: {
    styleOverrides: { primary: { lineHeight: NASTALIQ_LINE }, secondary: { lineHeight: NASTALIQ_LINE } },
  },
} as const;

/** The console's look; the direction and the font follow the language in use. */
const themeFor = (language: Language, direction: 'ltr' | 'rtl') =>
  createTheme({
    direction,
    // Info and warning darker than MUI's defaults: white on them, and they on white, pass WCAG AA.
    palette: {
      primary: { main: '#1e5aa8' },
      info: { main: '#01579b' },
      warning: { main: '#b45309' },
      background: { default: '#f6f7fb' },
    },
    shape: { borderRadius: 8 },
    typography: { fontFamily: fontFamilyFor(language), ...(language === 'ur' ? NASTALIQ_TYPOGRAPHY : {}) },
    components: {
      ...(language === 'ur' ? NASTALIQ_COMPONENTS : {}),
      MuiButtonBase: { styleOverrides: { root: focusRing('2px') } },
      MuiMenuItem: { styleOverrides: { root: focusRing('-3px') } },
      MuiListItemButton: { styleOverrides: { root: focusRing('-3px') } },
      MuiTab: { styleOverrides: { root: focusRing('-3px') } },
      MuiAlert: { styleOverrides: { root: { '&.MuiAlert-filled': { '--focus-ring': '#fff' } } } },
      // A count is digits and a sign: "99+" reads the same right to left, never "+99".
      MuiBadge: { styleOverrides: { badge: { unicodeBidi: 'plaintext' } } },
    },
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

/** The signed-in account's language (else the browser's, else English), shown as it changes. */
function FollowAccountLanguage() {
  const { user } = useAuth();
  const chosen = user?.language;
  useEffect(() => {
    void showLanguage(languageFor(chosen));
  }, [chosen]);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  // The pseudo-locale of a browser test is English in every way but its texts.
  const language: Language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const direction = i18n.dir(language);
  const theme = useMemo(() => themeFor(language, direction), [language, direction]);
  return (
    <CacheProvider value={cacheFor(direction)}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>
            <ToastProvider>
              <AuthProvider>
                <FollowAccountLanguage />
                {children}
              </AuthProvider>
            </ToastProvider>
          </BrowserRouter>
        </QueryClientProvider>
      </ThemeProvider>
    </CacheProvider>
  );
}
