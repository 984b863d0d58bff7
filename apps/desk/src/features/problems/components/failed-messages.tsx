import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/field-errors';
import { formatInstant } from '../../../lib/format';
import { PageLoading } from '../../../lib/page-loading';
import { Section } from '../../../lib/section';
import { useMessageFailures } from '../api/message-failures';

/** The clinic's messages that failed or expired, newest first, with "more". */
export function FailedMessages({ zone }: { zone: string | undefined }) {
  const { t, i18n } = useTranslation('problems');
  const id = useId();
  const failures = useMessageFailures();
  const rows = failures.data?.pages.flat() ?? [];
  const when = (iso: string) => formatInstant(iso, i18n.language, zone);

  return (
    <Section title={t('failures.title')} intro={t('failures.intro')} id={id}>
      {failures.isPending ? <PageLoading /> : null}
      {failures.isError ? (
        <Alert severity="error">{t('loadFailed', { error: errorText(t, failures.error) })}</Alert>
      ) : null}
      {failures.isSuccess && rows.length === 0 ? (
        <Typography>{t('failures.none')}</Typography>
      ) : null}
      {rows.length > 0 ? (
        <TableContainer>
          <Table size="small" aria-labelledby={id}>
            <TableHead>
              <TableRow>
                <TableCell>{t('failures.when')}</TableCell>
                <TableCell>{t('failures.kind')}</TableCell>
                <TableCell>{t('failures.recipient')}</TableCell>
                <TableCell>{t('failures.channel')}</TableCell>
                <TableCell>{t('failures.status')}</TableCell>
                <TableCell>{t('failures.attempts')}</TableCell>
                <TableCell>{t('failures.error')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id}>
                  <TableCell>
                    <bdi>{when(row.ended_at ?? row.created_at)}</bdi>
                  </TableCell>
                  <TableCell component="th" scope="row">
                    {t(`failures.kinds.${row.kind}`)}
                  </TableCell>
                  <TableCell>
                    {row.recipient === null ? (
                      t('failures.unknownRecipient')
                    ) : (
                      <bdi>{row.recipient}</bdi>
                    )}
                  </TableCell>
                  <TableCell>{t(`failures.channels.${row.channel}`)}</TableCell>
                  <TableCell>
                    <Typography
                      component="span"
                      variant="body2"
                      sx={{ color: row.status === 'failed' ? 'error.main' : 'text.primary' }}
                    >
                      {t(`failures.statuses.${row.status}`)}
                    </Typography>
                  </TableCell>
                  <TableCell>{row.attempts}</TableCell>
                  <TableCell sx={{ maxWidth: 320, overflowWrap: 'anywhere' }}>
                    {row.last_error ? <bdi dir="ltr">{row.last_error}</bdi> : '—'}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      {failures.hasNextPage ? (
        <Button
          sx={{ mt: 2 }}
          onClick={() => void failures.fetchNextPage()}
          disabled={failures.isFetchingNextPage}
        >
          {t('more')}
        </Button>
      ) : null}
    </Section>
  );
}
