import { Alert, type AlertColor, Snackbar, useMediaQuery, useTheme } from '@mui/material';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useTranslation } from '../i18n';

export const TOAST_DURATION_MS = 4000;

interface ToastState {
  open: boolean;
  message: string;
  severity: AlertColor;
}

interface ToastApi {
  showToast: (message: string, severity?: AlertColor) => void;
}

const ToastContext = createContext<ToastApi | undefined>(undefined);

export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('app');
  const [toast, setToast] = useState<ToastState>({ open: false, message: '', severity: 'info' });
  const showToast = useCallback((message: string, severity: AlertColor = 'info') => {
    setToast({ open: true, message, severity });
  }, []);
  const close = (_event?: unknown, reason?: string) => {
    // A click elsewhere on the page must not dismiss the message before it has been read.
    if (reason === 'clickaway') return;
    setToast((current) => ({ ...current, open: false }));
  };
  const api = useMemo(() => ({ showToast }), [showToast]);
  // On a phone the bottom of the screen holds the page's own actions (a register's Submit bar):
  // messages come in at the top there, where they cover nothing to tap.
  const isPhone = useMediaQuery(useTheme().breakpoints.down('sm'));
  return (
    <ToastContext.Provider value={api}>
      {children}
      <Snackbar
        open={toast.open}
        autoHideDuration={TOAST_DURATION_MS}
        onClose={close}
        anchorOrigin={isPhone ? { vertical: 'top', horizontal: 'center' } : { vertical: 'bottom', horizontal: 'right' }}
      >
        <Alert onClose={close} closeText={t('close')} severity={toast.severity} variant="filled" sx={{ width: '100%' }}>
          {toast.message}
        </Alert>
      </Snackbar>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const context = useContext(ToastContext);
  if (!context) throw new Error('useToast must be used within a ToastProvider');
  return context;
}
