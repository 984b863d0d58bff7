import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { PaymentRequest, PaymentTransaction } from '@marpe/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/field-errors';
import { PageLoading } from '../../../lib/page-loading';
import { usePaymentTransactions } from '../api/payment-requests';
import { shekels } from '../payment-form';
import { StageChip } from './stage-chip';

/** How a card attempt ended, in the reader's words. */
export function attemptResult(attempt: PaymentTransaction): string {
  if (!attempt.accepted) return attempt.response_code === '000' ? 'notAccepted' : 'declined';
  if (attempt.response_code !== '000') return 'declined';
  if (attempt.verification === 'refused') return 'refused';
  if (attempt.verification === null) return 'waiting';
  return 'approved';
}

/** A request's particulars and its card attempts (live while open). */
export function DetailsDialog({
  open,
  request,
  onClose,
  formatTime,
}: {
  open: boolean;
  /** Kept while the dialog closes, so its content does not vanish mid-transition. */
  request: PaymentRequest | null;
  onClose: () => void;
  formatTime: (iso: string) => string;
}) {
  const { t } = useTranslation('payments');
  const id = useId();
  const attempts = usePaymentTransactions(open ? (request?.id ?? null) : null);

  const facts: [string, string | null][] = request
    ? [
        [
          t('details.patient'),
          request.patient_name_remarks || request.patient_id_number
            ? `${request.patient_name_remarks} ${request.patient_id_number}`.trim()
            : null,
        ],
        [t('details.purpose'), request.purpose || null],
        [t('details.description'), request.description || null],
        [t('details.instalments'), t('list.instalments', { count: request.max_payments })],
        [t('details.created'), formatTime(request.created_at)],
        [t('details.expires'), formatTime(request.expires_at)],
        [t('details.paidAt'), request.paid_at ? formatTime(request.paid_at) : null],
      ]
    : [];

  return (
    <Dialog
      open={open && request !== null}
      onClose={onClose}
      aria-labelledby={`${id}-title`}
      maxWidth="md"
      fullWidth
    >
      {request ? (
        <>
          <DialogTitle id={`${id}-title`}>
            {t('details.title', { amount: shekels(request.amount) })}
          </DialogTitle>
          <DialogContent>
            <Stack spacing={2}>
              <Box>
                <StageChip stage={request.stage} />
                {request.card_last4 || request.approval_number ? (
                  <Typography component="span" sx={{ ml: 1 }}>
                    {[
                      request.card_last4
                        ? t('list.cardLast4', { last4: request.card_last4 })
                        : null,
                      request.approval_number
                        ? t('list.approval', { number: request.approval_number })
                        : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Typography>
                ) : null}
              </Box>
              <Box
                component="dl"
                sx={{
                  display: 'grid',
                  gridTemplateColumns: 'max-content 1fr',
                  columnGap: 2,
                  rowGap: 0.5,
                  m: 0,
                  '& dt': { fontWeight: 500 },
                  '& dd': { m: 0 },
                }}
              >
                {facts
                  .filter(([, value]) => value !== null)
                  .map(([label, value]) => (
                    <Box key={label} sx={{ display: 'contents' }}>
                      <dt>{label}</dt>
                      <dd>{value}</dd>
                    </Box>
                  ))}
              </Box>
              <Typography variant="h3" component="h3" id={`${id}-attempts`}>
                {t('details.attempts')}
              </Typography>
              {attempts.isPending ? (
                <PageLoading />
              ) : attempts.isError ? (
                <Alert severity="error">
                  {t('details.loadFailed')} {errorText(t, attempts.error)}
                </Alert>
              ) : attempts.data.length === 0 ? (
                <Typography>{t('details.noAttempts')}</Typography>
              ) : (
                <Table size="small" aria-labelledby={`${id}-attempts`}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('details.when')}</TableCell>
                      <TableCell>{t('details.result')}</TableCell>
                      <TableCell>{t('list.amount')}</TableCell>
                      <TableCell>{t('list.card')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {attempts.data.map((attempt) => (
                      <TableRow key={attempt.id}>
                        <TableCell>{formatTime(attempt.received_at)}</TableCell>
                        <TableCell>
                          {t(`details.${attemptResult(attempt)}`)}
                          <Typography variant="body2" color="text.secondary">
                            {t('details.code', { code: attempt.response_code })}
                            {attempt.response_description
                              ? ` · ${attempt.response_description}`
                              : ''}
                          </Typography>
                        </TableCell>
                        <TableCell>
                          {attempt.amount === null ? '—' : <bdi>{shekels(attempt.amount)}</bdi>}
                          {attempt.payments > 1 ? ` (${attempt.payments})` : ''}
                        </TableCell>
                        <TableCell>
                          {[
                            attempt.card_last4
                              ? t('list.cardLast4', { last4: attempt.card_last4 })
                              : null,
                            attempt.confirmation_code
                              ? t('list.approval', { number: attempt.confirmation_code })
                              : null,
                          ]
                            .filter(Boolean)
                            .join(' · ') || '—'}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={onClose}>
              {t('common:close')}
            </Button>
          </DialogActions>
        </>
      ) : null}
    </Dialog>
  );
}
