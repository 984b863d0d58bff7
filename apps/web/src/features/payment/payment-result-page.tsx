import { PAYMENT_SUCCESS_CODE } from '@marpe/shared/rules';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlined';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { LoadingView } from '../../lib/loading-view';
import { usePageTitle } from '../../lib/page-title';
import { getPaymentResult, paymentResultQueryKey } from './api/get-payment-request';
import { PaymentReceipt } from './components/payment-receipt';
import { PaymentStatus } from './components/payment-status';
import { sameOriginTop } from './frame-escape';
import { outcomeTitleKey, paymentOutcome, reportedCode } from './payment-outcome';
import { describeResponse } from './response-description';

/** How often, and how many times, the page asks whether the payment was confirmed. */
const POLL_MS = 2000;
const MAX_POLLS = 30;

/**
 * SPEC § 2 "Payment result view" (/tranzila/:token?results=…), the provider's success and fail
 * return address. The provider returns inside its frame: the page then moves the whole window
 * to itself and shows the result there.
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
  // The address only says what the frame reported; the server's state, confirmed with the
  // provider, says whether it was paid. Asked every 2 s while it is being confirmed; the server
  // renders the page with its first answer (null: the link is not valid).
  const [polls, setPolls] = useState(0);
  const { data } = useQuery({
    queryKey: paymentResultQueryKey(token),
    queryFn: async ({ signal }) => {
      setPolls((n) => n + 1);
      return getPaymentResult(token, signal);
    },
    enabled: !top && reportedCode(results) === PAYMENT_SUCCESS_CODE && token !== '',
    gcTime: 0,
    refetchInterval: (query) =>
      query.state.data === null ||
      query.state.data?.status === 'paid' ||
      query.state.dataUpdateCount >= MAX_POLLS
        ? false
        : POLL_MS,
  });
  const outcome = paymentOutcome(results, data, polls);
  usePageTitle(top ? null : t(outcomeTitleKey[outcome]));

  if (top) return <LoadingView />;
  const tryAgain = (
    <Button
      variant="contained"
      size="large"
      onClick={() => void navigate(`/p/${encodeURIComponent(token)}`)}
    >
      {t('payment.result.tryAgain')}
    </Button>
  );
  if (outcome === 'paid') {
    return (
      <PaymentStatus
        icon={<CheckCircleOutlineIcon sx={{ fontSize: 72, color: 'success.main' }} />}
        heading={t('payment.result.success')}
        text={t('payment.result.thanks')}
      >
        {data?.receipt && <PaymentReceipt receipt={data.receipt} />}
      </PaymentStatus>
    );
  }
  if (outcome === 'processing') {
    return (
      <Box role="status">
        <PaymentStatus
          icon={<HourglassTopIcon sx={{ fontSize: 72, color: 'info.main' }} />}
          heading={t('payment.result.processing')}
          text={polls >= MAX_POLLS ? t('payment.result.processingLong') : undefined}
        />
      </Box>
    );
  }
  if (outcome === 'refused') {
    return (
      <PaymentStatus
        icon={<ErrorOutlineIcon sx={{ fontSize: 72, color: 'error.main' }} />}
        heading={t('payment.result.notConfirmed')}
        action={tryAgain}
      />
    );
  }
  // SPEC § 8's line: 'שגיאה בתשלום: ' and the code's description, translated on the English
  // page ("Payment error: card expired"). An unknown code has no description (SPEC: empty), and
  // then the heading stops at the word error, without a colon. Then what to do about it.
  const reason = describeResponse(reportedCode(results), t, (key) => i18n.exists(key));
  return (
    <PaymentStatus
      icon={<ErrorOutlineIcon sx={{ fontSize: 72, color: 'error.main' }} />}
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
      text={t('payment.result.whatToDo')}
      action={tryAgain}
    />
  );
}
