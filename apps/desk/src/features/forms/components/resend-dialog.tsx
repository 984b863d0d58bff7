import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import type { FormRequest, ResentFormRequest } from '@marpe/shared';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { errorText } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/notify';
import { resendFormRequest } from '../api/form-requests';
import { usePatientByIdNumber } from '../api/patient-lookup';
import { DeliveryChoice, type Delivery } from './delivery-choice';
import { LinkResult } from './link-result';

/**
 * A fresh link for a pending request, to the patient's phone or to copy: the dialog says before
 * and after that the link sent before stops working, and the answers so far are kept.
 */
export function ResendDialog({
  request,
  onClose,
  onResent,
}: {
  /** The request to resend; null keeps the dialog closed. */
  request: FormRequest | null;
  onClose: () => void;
  onResent: () => void;
}) {
  const { t } = useTranslation('forms');
  const id = useId();
  const notify = useNotify();
  const open = request !== null;
  // The request stays shown while the dialog closes (its transition), after `request` is null.
  const [shown, setShown] = useState<FormRequest | null>(request);
  if (request && request !== shown) setShown(request);
  const patient = usePatientByIdNumber(shown?.patient_id_number || null);
  const phone = patient.data?.phone ?? null;
  const [delivery, setDelivery] = useState<Delivery>('send');
  const [created, setCreated] = useState<ResentFormRequest | null>(null);
  const resend = useMutation({
    mutationFn: ({ requestId, sendTo }: { requestId: number; sendTo: string | null }) =>
      resendFormRequest(requestId, sendTo ? { send_to_phone: sendTo } : {}),
  });
  const canSend = phone !== null;
  const chosen: Delivery = canSend ? delivery : 'copy';

  function reset() {
    setDelivery('send');
    setCreated(null);
    setShown(null);
    resend.reset();
  }

  async function submit() {
    if (!shown) return;
    try {
      const link = await resend.mutateAsync({
        requestId: shown.id,
        sendTo: chosen === 'send' ? phone : null,
      });
      setCreated(link);
      notify(t(link.sent_by ? 'resend.snack' : 'resend.snackLink'));
      onResent();
    } catch {
      // Said in the dialog; the choice stays for another try.
    }
  }

  const failure = resend.isError
    ? resend.error instanceof ApiError && resend.error.status === 409
      ? t('resend.conflict')
      : errorText(t, resend.error)
    : null;
  const form = shown?.template_name ?? t('list.deletedForm');

  return (
    <Dialog
      open={open}
      onClose={resend.isPending ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      aria-describedby={created ? undefined : `${id}-body`}
      maxWidth="sm"
      fullWidth
      slotProps={{ transition: { onExited: reset } }}
    >
      {created ? (
        <LinkResult
          link={created}
          phone={phone}
          replaced
          titleId={`${id}-title`}
          onClose={onClose}
        />
      ) : (
        <>
          <DialogTitle id={`${id}-title`}>{t('resend.title')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2}>
              <DialogContentText id={`${id}-body`}>{t('resend.body', { form })}</DialogContentText>
              <DeliveryChoice
                value={chosen}
                onChange={setDelivery}
                phone={phone}
                sendDisabled={!canSend}
              />
              {failure ? <Alert severity="error">{failure}</Alert> : null}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={resend.isPending}>
              {t('common:cancel')}
            </Button>
            <Button
              variant="contained"
              onClick={() => void submit()}
              loading={resend.isPending || (Boolean(shown?.patient_id_number) && patient.isPending)}
            >
              {chosen === 'send' ? t('resend.submit') : t('resend.submitCopy')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
