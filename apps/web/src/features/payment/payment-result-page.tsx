import { PAYMENT_SUCCESS_CODE } from '@marpe/shared/rules';
import CheckCircleOutlineIcon from '../../lib/icons/check-circle-outlined';
import ErrorOutlineIcon from '../../lib/icons/error-outlined';
import HourglassTopIcon from '../../lib/icons/hourglass-top';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { LoadingView } from '../../lib/loading-view';
import { usePageTitle } from '../../lib/page-title';
import { StatusLayout } from '../../lib/status-layout';
import { getPaymentResult, paymentResultQueryKey } from './api/get-payment-request';
import { PaymentHeader } from './components/payment-header';
import { PaymentOnward, PaymentReceipt } from './components/payment-receipt';
import { sameOriginTop } from './frame-escape';
import { outcomeTitleKey, paymentOutcome, reportedCode } from './payment-outcome';
import { describeResponse } from './response-description';

/** How often, and how many times, the page asks whether the payment was confirmed. */
const POLL_MS = 2000;
const MAX_POLLS = 30;

/**
 * The payment result view, /tranzila/:token?results=… (docs/product/payments.md#result), the
 * provider's success and fail return address. The provider returns inside its frame: the page then
 * moves the whole window to itself and shows the result there.
 */
export function PaymentResultPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const [searchParams] = useSearchParams();
  // Decided once: the page in the frame is about to be replaced, so it renders no result. The
  // server renders the page as at top level (ADR 025: its waking script leaves the frame first).
  const [top] = useState(() => (typeof window === 'undefined' ? null : sameOriginTop(window)));
  useEffect(() => {
    top?.location.replace(window.location.href);
  }, [top]);

  const results = searchParams.get('results') ?? '';
  const reportedSuccess = reportedCode(results) === PAYMENT_SUCCESS_CODE;
  // When a payment that did not go through was tried: now, as the patient reads it.
  const [attemptedAt] = useState(() => new Date().toISOString());
  // The address only says what the frame reported; the server's state, confirmed with the
  // provider, says whether it was paid. Asked every 2 s while it is being confirmed; the server
  // renders the page with its first answer (null: the link is not valid). A failure asks once,
  // for whose request it was and what for (the server's answer already is that).
  const [polls, setPolls] = useState(0);
  const { data } = useQuery({
    queryKey: paymentResultQueryKey(token),
    queryFn: async ({ signal }) => {
      setPolls((n) => n + 1);
      return getPaymentResult(token, signal);
    },
    enabled: !top && token !== '',
    staleTime: reportedSuccess ? 0 : Infinity,
    gcTime: 0,
    refetchInterval: (query) =>
      !reportedSuccess ||
      query.state.data === null ||
      query.state.data?.status === 'paid' ||
      query.state.dataUpdateCount >= MAX_POLLS
        ? false
        : POLL_MS,
  });
  const outcome = paymentOutcome(results, data, polls);
  usePageTitle(top ? null : t(outcomeTitleKey[outcome]));

  if (top) return <LoadingView />;
  const header = data && (
    <PaymentHeader clinicName={data.clinicName} clinicLogo={data.clinicLogo} />
  );
  // Again only while the link can still be paid (unknown until the server answers).
  const payable = data === undefined || data?.status === 'pending';
  const tryAgain = payable && (
    <Button
      variant="contained"
      size="large"
      onClick={() => void navigate(`/p/${encodeURIComponent(token)}`)}
    >
      {t('payment.result.tryAgain')}
    </Button>
  );
  const failedOnward = <PaymentOnward request={data} call first={tryAgain} />;
  if (outcome === 'paid') {
    return (
      <StatusLayout
        header={header}
        image={<CheckCircleOutlineIcon sx={{ fontSize: 72, color: 'success.main' }} />}
        heading={t('payment.result.success')}
        text={t('payment.result.thanks')}
      >
        {data && <PaymentReceipt request={data} />}
        {data && <PaymentOnward request={data} />}
      </StatusLayout>
    );
  }
  if (outcome === 'processing') {
    return (
      <Box role="status">
        <StatusLayout
          header={header}
          image={<HourglassTopIcon sx={{ fontSize: 72, color: 'info.main' }} />}
          heading={t('payment.result.processing')}
          text={polls >= MAX_POLLS ? t('payment.result.processingLong') : undefined}
        />
      </Box>
    );
  }
  if (outcome === 'refused') {
    return (
      <StatusLayout
        header={header}
        image={<ErrorOutlineIcon sx={{ fontSize: 72, color: 'error.main' }} />}
        heading={t('payment.result.notConfirmed')}
        text={data === null ? t('payment.result.linkEnded') : undefined}
      >
        {data && <PaymentReceipt request={data} attemptedAt={attemptedAt} />}
        {failedOnward}
      </StatusLayout>
    );
  }
  // The product's line: 'שגיאה בתשלום: ' and the code's description, translated on the English
  // page ("Payment error: card expired"). An unknown code has no description (empty), and
  // then the heading stops at the word error, without a colon. Then what to do about it, and
  // what was tried (the sum, what for, when) with the clinic to call.
  const reason = describeResponse(reportedCode(results), t, (key) => i18n.exists(key));
  return (
    <StatusLayout
      header={header}
      image={<ErrorOutlineIcon sx={{ fontSize: 72, color: 'error.main' }} />}
      heading={
        <>
          {t('payment.result.error')}
          {reason && (
            <>
              {': '}
              <bdi>{reason}</bdi>
            </>
          )}
        </>
      }
      text={data === null ? t('payment.result.linkEnded') : t('payment.result.whatToDo')}
    >
      {data && <PaymentReceipt request={data} attemptedAt={attemptedAt} />}
      {failedOnward}
    </StatusLayout>
  );
}
