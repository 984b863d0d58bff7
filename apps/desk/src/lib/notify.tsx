import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

type Notify = (message: string, severity?: 'success' | 'error' | 'info') => void;

const NotifyContext = createContext<Notify>(() => undefined);

/** What an action did, said for a few seconds at the bottom (and to screen readers). */
export function NotifyProvider({ children }: { children: ReactNode }) {
  const [note, setNote] = useState<{
    message: string;
    severity: 'success' | 'error' | 'info';
    key: number;
  } | null>(null);
  const notify = useCallback<Notify>((message, severity = 'success') => {
    setNote({ message, severity, key: Date.now() });
  }, []);
  return (
    <NotifyContext.Provider value={notify}>
      {children}
      <Snackbar
        key={note?.key}
        open={note !== null}
        autoHideDuration={6000}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') setNote(null);
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        {note ? (
          <Alert
            severity={note.severity}
            variant="filled"
            onClose={() => setNote(null)}
            role={note.severity === 'error' ? 'alert' : 'status'}
          >
            {note.message}
          </Alert>
        ) : undefined}
      </Snackbar>
    </NotifyContext.Provider>
  );
}

export const useNotify = (): Notify => useContext(NotifyContext);
