import AddCardIcon from '../../lib/icons/add-card';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { paymentRequestStages, type PaymentRequest, type PaymentRequestStage } from '@marpe/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api';
import { ConfirmDialog } from '../../lib/confirm-dialog';
import { errorText } from '../../lib/field-errors';
import { useClinicDates } from '../../lib/clinic-dates';
import { useNotify } from '../../lib/notify';
import { Page } from '../../lib/page';
import { PageLoading } from '../../lib/page-loading';
import { Section } from '../../lib/section';
import {
  cancelPaymentRequest,
  paymentRequestsKey,
  usePatientToSend,
  usePaymentRequests,
} from './api/payment-requests';
import { DetailsDialog } from './components/details-dialog';
import { RequestDialog } from './components/request-dialog';
import { StageChip } from './components/stage-chip';
import { shekels } from './payment-form';

/** Stages at which a request's link still works or may be revived: it can be cancelled. */
const cancellable: readonly PaymentRequestStage[] = ['pending', 'failed', 'expired'];

const isStage = (value: string | null): value is PaymentRequestStage =>
  (paymentRequestStages as readonly string[]).includes(value ?? '');

/**
 * `/desk/payments`: the clinic's payment requests, live, newest first; a new request (for the
 * patient `?send=<idNumber>` names, when opened from their page), the card attempts, a cancel.
 */
export function PaymentsPage() {
  const { t } = useTranslation('payments');
  const id = useId();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const sendTo = params.get('send');
  const stageParam = params.get('stage');
  const stage = isStage(stageParam) ? stageParam : null;
  const requests = usePaymentRequests(stage);
  const patientToSend = usePatientToSend(sendTo);
  const [requesting, setRequesting] = useState(() => sendTo !== null && sendTo !== '');
  const [shown, setShown] = useState<PaymentRequest | null>(null);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [cancelling, setCancelling] = useState<PaymentRequest | null>(null);

  const { dayAndTime: time } = useClinicDates();
  const refresh = () => queryClient.invalidateQueries({ queryKey: paymentRequestsKey });
  const nameOf = (request: PaymentRequest) =>
    request.patient_name_remarks || request.patient_id_number || t('list.noPatient');

  function setStage(next: string) {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (isStage(next)) updated.set('stage', next);
        else updated.delete('stage');
        return updated;
      },
      { replace: true },
    );
  }

  function closeRequest() {
    setRequesting(false);
    // Opened for a patient: the address no longer asks for the dialog.
    if (sendTo !== null) {
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          updated.delete('send');
          return updated;
        },
        { replace: true },
      );
    }
  }

  const patientNote =
    sendTo && patientToSend.isPending
      ? t('form.patientLoading')
      : sendTo && patientToSend.isSuccess && patientToSend.data === null
        ? t('form.patientMissing', { idNumber: sendTo })
        : sendTo && patientToSend.isError
          ? errorText(t, patientToSend.error)
          : null;

  const rows = requests.data?.pages.flat() ?? [];

  return (
    <Page
      title={t('title')}
      actions={
        <Button variant="contained" startIcon={<AddCardIcon />} onClick={() => setRequesting(true)}>
          {t('open')}
        </Button>
      }
    >
      <Section title={t('list.title')} intro={t('intro')} id={`${id}-list`}>
        <Stack spacing={2}>
          <TextField
            select
            size="small"
            label={t('list.filter')}
            value={stage ?? ''}
            onChange={(e) => setStage(e.target.value)}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            sx={{ maxWidth: 260 }}
          >
            <option value="">{t('list.all')}</option>
            {paymentRequestStages.map((value) => (
              <option key={value} value={value}>
                {t(`common:paymentStatus.${value}`)}
              </option>
            ))}
          </TextField>
          {requests.isError && rows.length > 0 ? (
            <Alert severity="error">
              {t('list.loadFailed')} {errorText(t, requests.error)}
            </Alert>
          ) : null}
          {requests.isPending ? (
            <PageLoading />
          ) : requests.isError && rows.length === 0 ? (
            <Alert severity="error">
              {t('list.loadFailed')} {errorText(t, requests.error)}
            </Alert>
          ) : rows.length === 0 ? (
            <Typography>{stage ? t('list.noneAtStage') : t('list.none')}</Typography>
          ) : (
            <TableContainer>
              <Table size="small" aria-labelledby={`${id}-list`}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('list.patient')}</TableCell>
                    <TableCell>{t('list.amount')}</TableCell>
                    <TableCell>{t('list.purpose')}</TableCell>
                    <TableCell>{t('list.stage')}</TableCell>
                    <TableCell>{t('list.card')}</TableCell>
                    <TableCell>{t('list.created')}</TableCell>
                    <TableCell>
                      <span className="visually-hidden">{t('list.actions')}</span>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((request) => (
                    <TableRow key={request.id}>
                      <TableCell component="th" scope="row">
                        {nameOf(request)}
                        {request.patient_name_remarks && request.patient_id_number ? (
                          <Typography variant="body2" color="text.secondary">
                            {request.patient_id_number}
                          </Typography>
                        ) : null}
                      </TableCell>
                      <TableCell>
                        <bdi>{shekels(request.amount)}</bdi>
                        {request.max_payments > 1 ? (
                          <Typography variant="body2" color="text.secondary">
                            {t('list.instalments', { count: request.max_payments })}
                          </Typography>
                        ) : null}
                      </TableCell>
                      <TableCell>{request.purpose}</TableCell>
                      <TableCell>
                        <StageChip stage={request.stage} />
                      </TableCell>
                      <TableCell>
                        {request.card_last4 ? (
                          <div>{t('list.cardLast4', { last4: request.card_last4 })}</div>
                        ) : null}
                        {request.approval_number ? (
                          <Typography variant="body2" color="text.secondary">
                            {t('list.approval', { number: request.approval_number })}
                          </Typography>
                        ) : null}
                      </TableCell>
                      <TableCell>{time(request.created_at)}</TableCell>
                      <TableCell sx={{ textAlign: 'end', whiteSpace: 'nowrap' }}>
                        <Button
                          onClick={() => {
                            setShown(request);
                            setDetailsOpen(true);
                          }}
                        >
                          {t('list.details')}
                          <span className="visually-hidden">
                            {' '}
                            {nameOf(request)} {shekels(request.amount)}
                          </span>
                        </Button>
                        {cancellable.includes(request.stage) ? (
                          <Button color="error" onClick={() => setCancelling(request)}>
                            {t('list.cancel')}
                            <span className="visually-hidden">
                              {' '}
                              {nameOf(request)} {shekels(request.amount)}
                            </span>
                          </Button>
                        ) : null}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
          {requests.hasNextPage ? (
            <Box>
              <Button
                variant="outlined"
                onClick={() => void requests.fetchNextPage()}
                loading={requests.isFetchingNextPage}
              >
                {t('list.more')}
              </Button>
            </Box>
          ) : null}
        </Stack>
      </Section>

      <RequestDialog
        open={requesting}
        onClose={closeRequest}
        onCreated={() => void refresh()}
        initialPatient={patientToSend.data ?? null}
        patientNote={patientNote}
      />
      <DetailsDialog
        open={detailsOpen}
        request={shown && (rows.find((r) => r.id === shown.id) ?? shown)}
        onClose={() => setDetailsOpen(false)}
        formatTime={time}
      />
      <ConfirmDialog
        open={cancelling !== null}
        title={t('list.cancelTitle')}
        body={t('list.cancelBody', {
          name: cancelling ? nameOf(cancelling) : '',
          amount: cancelling ? shekels(cancelling.amount) : '',
        })}
        confirmLabel={t('list.cancelConfirm')}
        destructive
        onClose={() => setCancelling(null)}
        onConfirm={async () => {
          if (!cancelling) return;
          try {
            await cancelPaymentRequest(cancelling.id);
            notify(t('list.cancelled', { amount: shekels(cancelling.amount) }));
          } catch (failure) {
            // Paid meanwhile: nothing to cancel, and the reason is worth more than "it changed".
            if (!(failure instanceof ApiError && failure.status === 409)) throw failure;
            notify(t('list.alreadyPaid'), 'error');
          } finally {
            await refresh();
          }
        }}
      />
    </Page>
  );
}
