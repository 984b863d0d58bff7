import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/field-errors';
import { PageLoading } from '../../../lib/page-loading';
import { Section } from '../../../lib/section';

/** Where a section's list stands: its rows once in, whether more follow, or what failed. */
interface ListState<T> {
  rows: T[] | undefined;
  more: boolean;
  pending: boolean;
  error: unknown;
}

export const stateOf = <T,>(
  query: UseQueryResult<{ rows: T[]; more: boolean }> | UseQueryResult<T[]>,
): ListState<T> => {
  const data = query.data;
  return {
    rows: data === undefined ? undefined : Array.isArray(data) ? data : data.rows,
    more: data !== undefined && !Array.isArray(data) && data.more,
    pending: query.isPending,
    error: query.error,
  };
};

/** A section's list as it loads: its table, its empty text, or what failed; "more" when more. */
export function ListSection<T>({
  title,
  state,
  empty,
  head,
  row,
  onMore,
}: {
  title: string;
  state: ListState<T>;
  empty: string;
  head: string[];
  row: (item: T) => ReactNode;
  onMore?: () => void;
}) {
  const { t } = useTranslation('patients');
  const id = useId();
  const rows = state.rows ?? [];
  const failed = state.error !== null && state.error !== undefined;
  return (
    <Section title={title} id={id}>
      {failed ? (
        <Alert severity="error" sx={{ mb: rows.length > 0 ? 2 : 0 }}>
          {t('patient.loadFailed')} {errorText(t, state.error)}
        </Alert>
      ) : null}
      {state.pending && !failed ? (
        <PageLoading />
      ) : rows.length === 0 ? (
        failed ? null : (
          <Typography>{empty}</Typography>
        )
      ) : (
        <TableContainer>
          <Table size="small" aria-labelledby={id}>
            <TableHead>
              <TableRow>
                {head.map((cell, i) => (
                  <TableCell key={i}>
                    {cell === '' ? (
                      <span className="visually-hidden">{t('patient.actions')}</span>
                    ) : (
                      cell
                    )}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>{rows.map(row)}</TableBody>
          </Table>
        </TableContainer>
      )}
      {state.more && onMore ? (
        <Button onClick={onMore} sx={{ mt: 1 }}>
          {t('patient.more')}
        </Button>
      ) : null}
    </Section>
  );
}
