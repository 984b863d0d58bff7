import { describeResponseCode, parsePaymentResults, PAYMENT_SUCCESS_CODE } from '@marpe/shared';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlined';
import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { LoadingView } from '../../lib/loading-view';
import { usePageTitle } from '../../lib/page-title';
import { PaymentStatus } from './components/payment-status';
import { sameOriginTop } from './frame-escape';

/**
 * SPEC § 2 "Payment result view" (/tranzila/:token?results=…), the provider's success and fail
 * return address. The provider returns inside its frame: the page then moves the whole window
 * to itself and shows the result there.
 */
export function PaymentResultPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const [searchParams] = useSearchParams();
  // Decided once: the page in the frame is about to be replaced, so it renders no result.
  const [top] = useState(() => sameOriginTop(window));
  useEffect(() => {
    top?.location.replace(window.location.href);
  }, [top]);

  const code = parsePaymentResults(searchParams.get('results') ?? '').Response ?? '';
  const success = code === PAYMENT_SUCCESS_CODE;
  usePageTitle(top ? null : t(success ? 'payment.result.success' : 'payment.result.error'));

  if (top) return <LoadingView />;
  if (success) {
    return (
      <PaymentStatus
        icon={<CheckCircleOutlineIcon sx={{ fontSize: 72, color: 'success.main' }} />}
        heading={t('payment.result.success')}
        text={t('payment.result.thanks')}
      />
    );
  }
  // SPEC § 8 gives the descriptions in Hebrew only, so the English page shows the Hebrew one
  // too, marked as Hebrew and isolated: "Payment error: כרטיס פגום". An unknown code has no
  // description (SPEC: empty), and then the heading stops at the word error, without a colon.
  const reason = describeResponseCode(code);
  return (
    <PaymentStatus
      icon={<ErrorOutlineIcon sx={{ fontSize: 72, color: 'error.main' }} />}
      heading={
        <>
          {t('payment.result.error')}
          {reason && (
            <>
              {': '}
              <bdi lang="he">{reason}</bdi>
            </>
          )}
        </>
      }
      action={
        <Button
          variant="contained"
          size="large"
          onClick={() => void navigate(`/p/${encodeURIComponent(token)}`)}
        >
          {t('payment.result.tryAgain')}
        </Button>
      }
    />
  );
}
