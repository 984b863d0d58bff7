import type { PaymentRequestData } from '@marpe/shared';
import { buildCardFrameUrl, toAgorot } from '@marpe/shared/rules';
import CheckCircleOutlineIcon from '../../lib/icons/check-circle-outlined';
import HourglassTopIcon from '../../lib/icons/hourglass-top';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { endedLinkPath } from '../../lib/clinic/ended-link';
import { appConfig } from '../../lib/config';
import { ErrorView } from '../../lib/error-view';
import { LoadingView } from '../../lib/loading-view';
import { StatusLayout } from '../../lib/status-layout';
import { getPaymentRequest, paymentRequestQueryKey } from './api/get-payment-request';
import { CardFrame } from './components/card-frame';
import { PaymentDetails } from './components/payment-details';
import { PaymentForm } from './components/payment-form';
import { PaymentHeader } from './components/payment-header';
import { PaymentOnward, PaymentReceipt } from './components/payment-receipt';
import { SecurePageNote } from './components/secure-page-note';

/** The payment request page, /p/:token (docs/product/payments.md); states as in its "States". */
export function PaymentRequestPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const { data, error, isFetching, refetch } = useQuery({
    queryKey: paymentRequestQueryKey(token),
    queryFn: ({ signal }) => getPaymentRequest(token, signal),
    staleTime: Infinity,
    gcTime: 0,
    enabled: token !== '',
  });

  if (token === '' || (error instanceof ApiError && error.status === 404)) {
    // An expired or cancelled link says so, with its clinic's phone.
    return <Navigate to={endedLinkPath(error)} replace />;
  }
  if (!data && error && !isFetching) {
    return <ErrorView message={t('payment.loadError')} onRetry={() => void refetch()} />;
  }
  if (!data) return <LoadingView />;
  const amountAgorot = toAgorot(data.amount);
  // Not a sum the frame can charge: as broken as an answer that failed to parse.
  if (amountAgorot === null || amountAgorot <= 0) {
    return <ErrorView message={t('payment.loadError')} onRetry={() => void refetch()} />;
  }
  if (data.status === 'paid') {
    return (
      <StatusLayout
        header={<PaymentHeader clinicName={data.clinicName} clinicLogo={data.clinicLogo} />}
        image={<CheckCircleOutlineIcon sx={{ fontSize: 72, color: 'success.main' }} />}
        heading={t('payment.paid.heading')}
        text={t('payment.paid.text')}
      >
        <PaymentReceipt request={data} />
        <PaymentOnward request={data} />
      </StatusLayout>
    );
  }
  if (data.status === 'verifying') {
    return (
      <StatusLayout
        header={<PaymentHeader clinicName={data.clinicName} clinicLogo={data.clinicLogo} />}
        image={<HourglassTopIcon sx={{ fontSize: 72, color: 'info.main' }} />}
        heading={t('payment.verifying.heading')}
        text={t('payment.verifying.text')}
      />
    );
  }
  return <PaymentRequest token={token} data={data} amountAgorot={amountAgorot} />;
}

interface PaymentRequestProps {
  token: string;
  data: PaymentRequestData;
  amountAgorot: number;
}

/**
 * The loaded request: who asks, what for and for whom, the sum; the form, then (after a valid
 * email) the card frame in its place; and the legal links.
 */
function PaymentRequest({ token, data, amountAgorot }: PaymentRequestProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(data.patientEmail);
  const [payments, setPayments] = useState(1);
  const [frameUrl, setFrameUrl] = useState<string | null>(null);
  const [returned, setReturned] = useState(false);

  const pay = (receiptEmail: string) => {
    setEmail(receiptEmail);
    setFrameUrl(
      buildCardFrameUrl({
        baseUrl: appConfig().cardFrameBaseUrl,
        terminal: data.terminal,
        amountAgorot,
        payments: Math.min(Math.max(payments, 1), data.numPayments),
        email: receiptEmail,
        patientId: data.patientId,
        remarks: data.patientNameRemarks,
        // The provider sends the browser (inside the frame) back to this address, and the result
        // page then moves the whole window to itself, which it may do only from the page's own
        // origin. So the addresses are built on the origin this page was opened from, not on the
        // canonical PUBLIC_ORIGIN: they differ whenever the app is reached by another name (a
        // second domain, a test server on 127.0.0.1), and a return to the canonical one would
        // land on another origin (or nowhere). Notify is the same server, reached by the same name.
        publicOrigin: window.location.origin,
        token,
        thtk: data.thtk,
        chargeRef: data.chargeRef,
      }),
    );
  };

  const back = () => {
    setFrameUrl(null);
    setReturned(true);
  };

  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', display: 'flex', flexDirection: 'column', gap: 3 }}>
      <PaymentHeader clinicName={data.clinicName} clinicLogo={data.clinicLogo} />
      <Typography component="h1" variant="h4">
        {t('payment.title')}
      </Typography>
      <PaymentDetails
        purpose={data.purpose}
        patient={data.patientNameRemarks}
        amountAgorot={amountAgorot}
        // The form shows the split under its selector; with the frame open, the details do.
        payments={frameUrl ? payments : 1}
      />
      {frameUrl ? (
        <CardFrame src={frameUrl} onBack={back} />
      ) : (
        <PaymentForm
          numPayments={data.numPayments}
          amountAgorot={amountAgorot}
          email={email}
          payments={payments}
          onEmailChange={setEmail}
          onPaymentsChange={setPayments}
          onPay={pay}
          focusSubmit={returned}
        >
          <SecurePageNote provider={data.cardProvider} />
        </PaymentForm>
      )}
    </Box>
  );
}
